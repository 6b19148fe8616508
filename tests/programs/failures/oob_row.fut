-- Partial indexing of a rank-2 array (a row) out of bounds reports one index and one dimension.
-- ==
-- input { [[1, 2], [3, 4]] 1i64 } output { [3, 4] }
-- input { [[1, 2], [3, 4]] 2i64 } error: Index \[2\] out of bounds for array of shape \[2\](\[2\])?\.[\s\S]*oob_row\.fut:6:
entry main (a: [][]i32) (i: i64) : []i32 =
  a[i]
