-- map4 with mixed element types.
-- ==
-- input { [1, 2] [1.5f32, 2.5f32] [true, false] [10i64, 20i64] }
-- output { [12.5f32, 22.0f32] }
entry main [n] (a: [n]i32) (b: [n]f32) (c: [n]bool) (d: [n]i64) : [n]f32 =
  map4 (\x y z w -> if z then f32.i32 x + y + f32.i64 w else f32.i64 w + f32.i32 x) a b c d
