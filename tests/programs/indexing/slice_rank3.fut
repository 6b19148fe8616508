-- Slicing a rank-3 array in several dimensions at once, and mixing an index with slices.
-- ==
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]] }
-- output { [[[5, 6], [7, 8]], [[9, 10], [11, 12]]] [[2, 4], [6, 8], [10, 12]] [3, 7, 11] [[[3, 4]], [[7, 8]], [[11, 12]]] }
entry main (a: [][][]i32) : ([][][]i32, [][]i32, []i32, [][][]i32) =
  (a[1:], a[:, :, 1], a[:, 1, 0], a[:, 1:2])
