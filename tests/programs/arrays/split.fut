-- split (Futhark's current signature: split [n][m] (xs: [n+m]t) : ([n]t, [m]t)); the split
-- point comes from a coercion to [k + (n - k)]; a split point past the end fails.
-- ==
-- input { 2i64 [1, 2, 3, 4, 5] }   output { [1, 2] [3, 4, 5] }
-- input { 0i64 [1, 2, 3] }         output { empty([0]i32) [1, 2, 3] }
-- input { 3i64 [1, 2, 3] }         output { [1, 2, 3] empty([0]i32) }
-- input { 0i64 empty([0]i32) }     output { empty([0]i32) empty([0]i32) }
-- input { 4i64 [1, 2, 3] }         error: out of bounds for array of shape \[3\]
entry main [n] (k: i64) (xs: [n]i32) : ([]i32, []i32) =
  split (xs :> [k + (n - k)]i32)
