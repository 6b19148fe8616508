-- Numeric-module functions passed directly to map.
-- ==
-- input { [4.0f32, 9.0f32, 0.25f32, 0.0f32] [-1.5f32, 2.0f32, -0.0f32, 3.0f32] }
-- output { [2.0f32, 3.0f32, 0.5f32, 0.0f32] [1.5f32, 2.0f32, 0.0f32, 3.0f32] [4, 9, 0, 0] }
entry main [n] (xs: [n]f32) (ys: [n]f32) : ([n]f32, [n]f32, [n]i32) =
  (map f32.sqrt xs, map f32.abs ys, map i32.f32 xs)
