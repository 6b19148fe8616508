-- The prelude's r32, t32, r64, t64, and the float modules' to_f64, to_i64, get_bit and
-- set_bit (through the bits of the float).
-- ==
-- input { 3 2.5f32 } output { 3f32 2 3f64 2 2.5f64 2i64 1 0 -2.5f32 }

entry main (x: i32) (y: f32) =
  (r32 x, t32 y, r64 x, t64 (f64.f32 y), f32.to_f64 y, f32.to_i64 y, f32.get_bit 31 (-y),
   f64.get_bit 63 1, f32.set_bit 31 y 1)
