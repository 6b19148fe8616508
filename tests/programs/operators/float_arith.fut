-- Floating-point + - * / and unary minus on f32 and f64, with precedence.
-- ==
-- input { 1.5f32 2.0f32 3.0f64 4.0f64 } output { 5.5f32 0.75f32 -3.5f32 19.0f64 -1.875f64 }
-- input { -1.0f32 0.5f32 1.0f64 -2.0f64 } output { -0.75f32 -2.0f32 0.5f32 5.0f64 1.25f64 }
entry main (a: f32) (b: f32) (x: f64) (y: f64) : (f32, f32, f32, f64, f64) =
  (a + b * b, a / b, -a - b, x + y * y, -x / y - x / y / 2.0 * 3.0)
