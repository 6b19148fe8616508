-- Conversions between f32 and f64, and f64 -> f32 rounding.
-- ==
-- input { 0.1f64 1.5f32 } output { 0.1f32 1.5f64 0.10000000149011612f64 }
-- input { -2.25f64 -0.0f32 } output { -2.25f32 -0.0f64 -2.25f64 }
entry main (a: f64) (b: f32) : (f32, f64, f64) =
  (f32.f64 a, f64.f32 b, f64.f32 (f32.f64 a))
