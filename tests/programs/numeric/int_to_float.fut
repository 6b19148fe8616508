-- Integer to float conversions: f32.i32, f64.i64, f32.u8, f64.i8, f32.i64.
-- ==
-- input { -7 9007199254740993i64 200u8 -128i8 } output { -7.0f32 9007199254740992.0f64 200.0f32 -128.0f64 9.0071993e15f32 }
-- input { 16777217 3i64 0u8 5i8 } output { 16777216.0f32 3.0f64 0.0f32 5.0f64 3.0f32 }
entry main (a: i32) (b: i64) (c: u8) (d: i8) : (f32, f64, f32, f64, f32) =
  (f32.i32 a, f64.i64 b, f32.u8 c, f64.i8 d, f32.i64 b)
