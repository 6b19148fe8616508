-- Using the size parameter in arithmetic: the mean and the centred values.
-- ==
-- input { [1.0f32, 2.0f32, 6.0f32] }  output { 3.0f32 [-2.0f32, -1.0f32, 3.0f32] }
-- input { [4.5f32] }                  output { 4.5f32 [0.0f32] }
def mean [n] (xs: [n]f32) : f32 = f32.sum xs / f32.i64 n

entry main [n] (xs: [n]f32) : (f32, [n]f32) =
  let m = mean xs
  in (m, map (\x -> x - m) xs)
