-- zip3/unzip3: permute the components of each triple.
-- ==
-- input { [1, 2] [true, false] [1.0f64, 2.0f64] }  output { [1.0f64, 2.0f64] [1, 2] [true, false] }
entry main [n] (a: [n]i32) (b: [n]bool) (c: [n]f64) : ([n]f64, [n]i32, [n]bool) =
  unzip3 (map (\(x, y, z) -> (z, x, y)) (zip3 a b c))
