-- Benchmark cases for the CLI tests of `kerb bench`: inline inputs with expected
-- outputs, a random input, an expected failure, and cases that `kerb bench` must skip
-- (nobench, no_cpu, a disabled block).
-- ==
-- entry: sum
-- input { [1, 2, 3] } output { 6 }
-- "random" random input { [1000]i32 }
-- nobench input { [5] } output { 5 }
-- no_cpu input { [7] } output { 7 }
entry sum (xs: []i32) : i32 = reduce (+) 0 xs

-- ==
-- entry: pick
-- "bad index" input { [1, 2, 3] 5i64 } error: Index \[5\] out of bounds
-- input { [1, 2, 3] 1i64 } output { 2 }
entry pick (xs: []i32) (i: i64) : i32 = xs[i]

-- An entry that may consume its argument: each run must see the original.
-- ==
-- entry: bump
-- input { [1, 2, 3] } output { [1, 12, 3] }
entry bump (xs: *[]i32) : []i32 = let xs[1] = xs[1] + 10 in xs

-- ==
-- tags { disable }
-- input { [1] } output { 99 }
entry off (xs: []i32) : i32 = xs[0]
