-- The numeric modules' sum and product functions, on empty and non-empty arrays.
-- ==
-- input { [1i64, 2i64, 3i64, 4i64] [0.5f32, 0.25f32] } output { 10i64 24i64 0.75f32 0.125f32 }
-- input { empty([0]i64) empty([0]f32) } output { 0i64 1i64 0.0f32 1.0f32 }
entry main (xs: []i64) (ys: []f32) : (i64, i64, f32, f32) =
  (i64.sum xs, i64.product xs, f32.sum ys, f32.product ys)
