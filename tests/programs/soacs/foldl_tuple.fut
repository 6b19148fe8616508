-- foldl with a tuple accumulator of a different type than the elements.
-- ==
-- input { [3.0f32, 1.0f32, 4.0f32, 1.0f32, 5.0f32] }  output { 14.0f32 5i64 5.0f32 }
-- input { empty([0]f32) }  output { 0.0f32 0i64 -f32.inf }
entry main (xs: []f32) : (f32, i64, f32) =
  foldl (\(s, c, m) x -> (s + x, c + 1, f32.max m x)) (0f32, 0i64, -f32.inf) xs
