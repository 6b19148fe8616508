-- Indexing a rank-3 array with full and partial indices, and a bounds failure in the middle dimension.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]] 2i64 1i64 }  output { 12 [11, 12] [[9, 10], [11, 12]] }
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]] 1i64 2i64 }  error: Index \[1, 2(, 1)?\] out of bounds for array of shape \[3\]\[2\]
entry main (a: [][][]i32) (i: i64) (j: i64) : (i32, []i32, [][]i32) =
  (a[i, j, 1], a[i, j], a[i])
