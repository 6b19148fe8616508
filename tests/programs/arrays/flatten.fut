-- flatten of rank 2 and rank 3 arrays, including empty dimensions.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }
-- output { [1, 2, 3, 4, 5, 6] [[1, 2], [3, 4], [5, 6], [7, 8]] [1, 2, 3, 4, 5, 6, 7, 8] }
-- input { empty([3][0]i32) empty([0][2][2]i32) }
-- output { empty([0]i32) empty([0][2]i32) empty([0]i32) }
entry main (xss: [][]i32) (xsss: [][][]i32) : ([]i32, [][]i32, []i32) =
  (flatten xss, flatten xsss, flatten (flatten xsss))
