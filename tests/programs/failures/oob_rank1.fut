-- Out-of-bounds index on a rank-1 array: past the end, exactly at the length, and negative.
-- ==
-- input { [1, 2, 3] 2i64 } output { 3 }
-- input { [1, 2, 3] 3i64 } error: Index \[3\] out of bounds for array of shape \[3\]\.[\s\S]*oob_rank1\.fut:8:
-- input { [1, 2, 3] -1i64 } error: Index \[-1\] out of bounds for array of shape \[3\]
-- input { empty([0]i32) 0i64 } error: Index \[0\] out of bounds for array of shape \[0\]
entry main (xs: []i32) (i: i64) : i32 =
  xs[i]
