-- Coercion of a rank-2 array checks every dimension.
-- ==
-- input { [[1, 2], [3, 4]] }  output { [[1, 3], [2, 4]] }
-- input { [[1, 2, 3], [4, 5, 6]] }  error: cannot match shape of type
entry main [n][m] (xss: [n][m]i32) : [n][n]i32 =
  transpose (xss :> [n][n]i32)
