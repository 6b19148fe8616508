-- Conversions to and from bool: nonzero is true; true converts to 1.
-- ==
-- input { 0 true } output { false true true 1.0f32 1 1u8 0.0f64 1i64 }
-- input { -3 false } output { true false true 0.0f32 0 0u8 0.0f64 0i64 }
-- input { 256 true } output { true true true 1.0f32 1 1u8 0.0f64 1i64 }
entry main (a: i32) (b: bool) : (bool, bool, bool, f32, i32, u8, f64, i64) =
  (bool.i32 a, bool.f32 (f32.bool b), bool.u8 (u8.i32 a + 1), f32.bool b, i32.bool b, u8.bool b,
   f64.bool (bool.i64 0), i64.bool (b && true))
