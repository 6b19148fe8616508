-- Nested maps over a rank-2 array, with the outer index captured by the inner lambda.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }  output { [[1, 2, 3], [14, 15, 16]] }
-- input { [[7]] }                   output { [[7]] }
-- input { empty([0][3]i32) }        output { empty([0][3]i32) }
entry main [n][m] (xss: [n][m]i32) : [n][m]i32 =
  map2 (\i row -> map (\x -> x + i32.i64 i * 10) row) (iota n) xss
