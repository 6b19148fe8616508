-- Every form of the test format that `kerb test` reads; all cases pass.
-- ==
-- input { [1, 2, 3] [0, 2] } output { [1, 3] }
-- input {
--   [1, 2, 3]
--   [2, 2,
--    1]
-- }
-- output {
--   [3, 3, 2]
-- }
-- input { [1, 2, 3] [0, 7] }
-- error: Index \[7\] out of bounds for array of shape \[3\]
-- compiled input { [5] [0, 0] } output { [5, 5] }
-- nobench input { empty([0]i32) empty([0]i64) } output { empty([0]i32) }
-- input @ data/forms.in output @ data/forms.out
-- random input { [10]i32 [0]i64 }
-- structure { Assert 1 }
entry main (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i]) is

-- A second block, for two other entry points.
-- ==
-- entry: twice twice_again
-- tags { quick }
-- input { 2.5 } output { 5.0 }
-- input { 1.0 } output { 2.0000001 }
entry twice (x: f64) : f64 = x * 2.0

entry twice_again (x: f64) : f64 = x + x

-- A disabled block is skipped.
-- ==
-- tags { disable }
-- input { 1.0 } output { 99.0 }
