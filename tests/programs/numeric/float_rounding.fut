-- f32.floor, f32.ceil, f32.trunc and f64.floor on positive and negative values.
-- ==
-- input { 2.5f32 -2.5f64 } output { 2.0f32 3.0f32 2.0f32 -3.0f64 }
-- input { -0.25f32 7.0f64 } output { -1.0f32 -0.0f32 -0.0f32 7.0f64 }
entry main (a: f32) (b: f64) : (f32, f32, f32, f64) =
  (f32.floor a, f32.ceil a, f32.trunc a, f64.floor b)
