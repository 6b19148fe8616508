-- Out-of-bounds index on a rank-2 array, in either dimension; the message shows both.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 2i64 } output { 6 }
-- input { [[1, 2, 3], [4, 5, 6]] 2i64 0i64 } error: Index \[2, 0\] out of bounds for array of shape \[2\]\[3\]\.[\s\S]*oob_rank2\.fut:8:
-- input { [[1, 2, 3], [4, 5, 6]] 0i64 3i64 } error: Index \[0, 3\] out of bounds for array of shape \[2\]\[3\]
-- input { [[1, 2, 3], [4, 5, 6]] 0i64 -2i64 } error: Index \[0, -2\] out of bounds for array of shape \[2\]\[3\]
entry main (a: [][]i32) (i: i64) (j: i64) : i32 =
  a[i, j]
