-- Indexing a rank-3 array fully and partially.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] 1i64 0i64 1i64 } output { 6 [5, 6] [[5, 6], [7, 8]] 8 }
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] 0i64 1i64 0i64 } output { 3 [3, 4] [[1, 2], [3, 4]] 8 }
entry main (a: [][][]i32) (i: i64) (j: i64) (k: i64) : (i32, []i32, [][]i32, i32) =
  (a[i, j, k], a[i, j], a[i], a[1, 1, 1])
