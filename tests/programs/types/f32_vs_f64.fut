-- The same computation in f32 and f64 gives visibly different results (sum of ten 0.1s).
-- ==
-- input { 3.0f32 3.0f64 } output { true true }
entry main (a: f32) (b: f64) : (bool, bool) =
  let s32 = loop s = 0.0f32 for _i < 10 do s + 0.1
  let s64 = loop s = 0.0f64 for _i < 10 do s + 0.1
  in (s32 != 1.0 && s32 > 1.0, s64 != 1.0 && s64 < 1.0 && a == f32.f64 b)
