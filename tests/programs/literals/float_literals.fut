-- Float literals: decimal, exponent forms, suffixes, and integer-looking floats.
-- ==
-- input { 1.0f32 1.0f64 } output { 3.5f32 0.001f64 150.0f64 3.0f32 0.25f32 2.5e-2f64 }
-- input { 2.0f32 0.5f64 } output { 4.5f32 0.0005f64 75.0f64 6.0f32 0.5f32 1.25e-2f64 }
entry main (a: f32) (b: f64) : (f32, f64, f64, f32, f32, f64) =
  (2.5f32 + a, 1e-3f64 * b, 1.5e2 * b, 3f32 * a, 25e-2 * a, 2.5E-2 * b)
