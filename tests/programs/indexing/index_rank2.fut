-- Indexing a rank-2 array: a[i, j], a[i][j], and a row a[i].
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 2i64 } output { 6 6 [4, 5, 6] 1 }
-- input { [[1, 2, 3], [4, 5, 6]] 0i64 1i64 } output { 2 2 [1, 2, 3] 1 }
entry main (a: [][]i32) (i: i64) (j: i64) : (i32, i32, []i32, i32) =
  (a[i, j], a[i][j], a[i], a[0, 0])
