-- Hexadecimal floats (mantissa in base 16, binary exponent after 'p') with underscores
-- in the fraction and the exponent, with and without a suffix.
-- ==
-- input { 1.0f32 } output { 10.5f32 40.25f64 0.078125f64 -2048.0f32 }
-- input { 2.0f32 } output { 21.0f32 40.25f64 0.078125f64 -2048.0f32 }
entry main (x: f32) : (f32, f64, f64, f32) =
  (x * 0xa.8p0, 0x2_8.4p0f64, 0x1.4p-0_4, -0x1p1_1f32)
