-- rotate on the outer dimension of a rank-2 array and, through map, on its rows.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }  output { [[4, 5, 6], [1, 2, 3]] [[3, 1, 2], [6, 4, 5]] }
entry main (xss: [][]i32) : ([][]i32, [][]i32) =
  (rotate 1 xss, map (rotate (-1)) xss)
