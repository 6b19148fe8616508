-- Floating-point ** for f32 and f64.
-- ==
-- input { 2.0f32 0.5f64 } output { 4.0f32 1.4142135623730951f64 1.0f32 }
-- input { 9.0f32 -1.0f64 } output { 81.0f32 0.5f64 1.0f32 }
entry main (a: f32) (b: f64) : (f32, f64, f32) =
  (a ** 2.0, 2.0 ** b, a ** 0.0)
