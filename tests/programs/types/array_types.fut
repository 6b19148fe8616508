-- Arrays of bool, f64 and u8, and a 3-D array type in a signature with sizes.
-- ==
-- input { [true, false] [1.5f64, -1.5f64] [[[1u8]], [[2u8]]] } output { [false, true] [3.0f64, -3.0f64] 2i64 1i64 1i64 }
entry main [a] [b] [c] (ps: []bool) (xs: []f64) (m: [a][b][c]u8) : ([]bool, []f64, i64, i64, i64) =
  (map (\p -> !p) ps, map (* 2.0) xs, a, b, c)
