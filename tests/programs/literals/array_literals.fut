-- Array literals of rank 1, 2 and 3 built from scalars and an input.
-- ==
-- input { 0 } output { [1, 2, 3] [[1, 2], [3, 4]] [[[1], [2]], [[3], [4]]] }
-- input { 10 } output { [11, 12, 13] [[11, 12], [13, 14]] [[[11], [12]], [[13], [14]]] }
entry main (x: i32) : ([]i32, [][]i32, [][][]i32) =
  ([1 + x, 2 + x, 3 + x],
   [[1 + x, 2 + x], [3 + x, 4 + x]],
   [[[1 + x], [2 + x]], [[3 + x], [4 + x]]])
