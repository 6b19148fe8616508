-- Anonymous functions with annotated parameters, an annotated return type and
-- tuple patterns, passed to map, map2 and reduce.
-- ==
-- input { [1, 2, 3] [0.5f32, 1.5f32, 2.5f32] }  output { [1.5f32, 3.5f32, 5.5f32] [2i64, 3i64, 4i64] 6i64 }
entry main [n] (xs: [n]i32) (ys: [n]f32) : ([n]f32, [n]i64, i64) =
  ( map2 (\(x: i32) (y: f32) : f32 -> f32.i32 x + y) xs ys
  , map (\(x: i32) -> i64.i32 x + 1) xs
  , reduce (\(a: i64) (b: i64) -> a + b) 0 (map (\((x, _): (i32, f32)) -> i64.i32 x) (zip xs ys)) )
