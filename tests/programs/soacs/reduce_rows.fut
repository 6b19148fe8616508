-- reduce and scan whose elements are arrays: vector addition over the rows of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] }  output { [12, 15, 18] [[1, 2, 3], [5, 7, 9], [12, 15, 18]] }
-- input { empty([0][3]i32) }                   output { [0, 0, 0] empty([0][3]i32) }
entry main [n][m] (xss: [n][m]i32) : ([m]i32, [n][m]i32) =
  ( reduce (\a b -> map2 (+) a b) (replicate m 0) xss
  , scan (\a b -> map2 (+) a b) (replicate m 0) xss )
