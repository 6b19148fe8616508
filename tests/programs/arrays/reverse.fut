-- reverse on rank 1 (odd, even, single, empty) and on the rows of a rank-2 array.
-- ==
-- input { [1, 2, 3, 4, 5] [[1, 2], [3, 4], [5, 6]] }  output { [5, 4, 3, 2, 1] [[5, 6], [3, 4], [1, 2]] [[2, 1], [4, 3], [6, 5]] }
-- input { [8] [[1, 2]] }                              output { [8] [[1, 2]] [[2, 1]] }
-- input { empty([0]i32) empty([0][2]i32) }            output { empty([0]i32) empty([0][2]i32) empty([0][2]i32) }
entry main (xs: []i32) (xss: [][]i32) : ([]i32, [][]i32, [][]i32) =
  (reverse xs, reverse xss, map reverse xss)
