-- A tuple-typed entry parameter takes its components as consecutive input values.
-- ==
-- input { 2 3.5f32 10 }  output { 17.0f32 12 }
entry main (p: (i32, f32)) (q: i32) : (f32, i32) =
  (f32.i32 p.0 * p.1 + f32.i32 q, q + p.0)
