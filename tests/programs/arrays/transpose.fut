-- transpose of square, non-square, single-row and empty matrices; transposing twice is the identity.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }  output { [[1, 4], [2, 5], [3, 6]] [[1, 2, 3], [4, 5, 6]] }
-- input { [[1, 2], [3, 4]] }        output { [[1, 3], [2, 4]] [[1, 2], [3, 4]] }
-- input { [[9, 8, 7]] }             output { [[9], [8], [7]] [[9, 8, 7]] }
-- input { empty([0][3]i32) }        output { empty([3][0]i32) empty([0][3]i32) }
entry main [n][m] (xss: [n][m]i32) : ([m][n]i32, [n][m]i32) =
  (transpose xss, transpose (transpose xss))
