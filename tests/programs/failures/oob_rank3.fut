-- Out-of-bounds index on a rank-3 array, in the last dimension.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] 1i64 1i64 1i64 } output { 8 }
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] 1i64 1i64 2i64 } error: Index \[1, 1, 2\] out of bounds for array of shape \[2\]\[2\]\[2\]\.[\s\S]*oob_rank3\.fut:7:
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] -1i64 0i64 0i64 } error: Index \[-1, 0, 0\] out of bounds for array of shape \[2\]\[2\]\[2\]
entry main (a: [][][]i32) (i: i64) (j: i64) (k: i64) : i32 =
  a[i, j, k]
