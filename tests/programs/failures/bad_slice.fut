-- Slices out of bounds: end past the length, start after end, and negative start.
-- ==
-- input { [1, 2, 3, 4, 5] 1i64 5i64 } output { [2, 3, 4, 5] }
-- input { [1, 2, 3, 4, 5] 1i64 6i64 } error: Index \[1:6\] out of bounds for array of shape \[5\]\.[\s\S]*bad_slice\.fut:8:
-- input { [1, 2, 3, 4, 5] 3i64 1i64 } error: Index \[3:1\] out of bounds for array of shape \[5\]
-- input { [1, 2, 3, 4, 5] -1i64 2i64 } error: Index \[-1:2\] out of bounds for array of shape \[5\]
entry main (xs: []i32) (i: i64) (j: i64) : []i32 =
  xs[i:j]
