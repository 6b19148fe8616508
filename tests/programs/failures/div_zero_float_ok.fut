-- Float division by zero is not a failure: it gives infinities or NaN.
-- ==
-- input { 1.0f32 0.0f32 } output { f32.inf true false }
-- input { -1.0f32 0.0f32 } output { -f32.inf true false }
-- input { 0.0f32 0.0f32 } output { f32.nan false true }
entry main (a: f32) (b: f32) : (f32, bool, bool) =
  let q = a / b
  in (q, f32.isinf q, f32.isnan q)
