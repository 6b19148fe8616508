-- The same decimal literal in f32 and f64 rounds differently; 0.1 + 0.2 in each type.
-- ==
-- input { 0.1f32 0.1f64 } output { 0.3f32 0.30000000000000004f64 true }
entry main (a: f32) (b: f64) : (f32, f64, bool) =
  (a + 0.2, b + 0.2, f64.f32 0.5f32 == 0.5f64)
