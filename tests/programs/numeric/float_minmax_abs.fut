-- f32.abs, f32.min, f32.max and f64 counterparts.
-- ==
-- input { -2.5f32 1.5f32 -0.75f64 } output { 2.5f32 -2.5f32 1.5f32 0.75f64 -0.75f64 3.0f64 }
-- input { 3.0f32 3.0f32 2.0f64 } output { 3.0f32 3.0f32 3.0f32 2.0f64 2.0f64 3.0f64 }
entry main (a: f32) (b: f32) (c: f64) : (f32, f32, f32, f64, f64, f64) =
  (f32.abs a, f32.min a b, f32.max a b, f64.abs c, f64.min c 3.0, f64.max c 3.0)
