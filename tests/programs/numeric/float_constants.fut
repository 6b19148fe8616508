-- f32.pi, f64.pi, f32.inf, f32.nan and the isnan/isinf predicates.
-- ==
-- input { 1.0f32 } output { 3.1415927f32 3.141592653589793f64 true false true false false }
-- input { 0.0f32 } output { 0.0f32 0.0f64 true false true false false }
entry main (k: f32) : (f32, f64, bool, bool, bool, bool, bool) =
  (f32.pi * k, f64.pi * f64.f32 k, f32.isnan f32.nan, f32.isnan f32.inf,
   f32.isinf (-f32.inf), f32.isinf k, f32.nan == f32.nan)
