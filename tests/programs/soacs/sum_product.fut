-- Module reductions i32.sum, i64.product, f32.sum, f64.product; i32 sums wrap around.
-- ==
-- input { [1, 2, 3, 4] [2i64, 3i64, 7i64] [0.5f32, 0.25f32, 2.0f32] [1.5f64, -2.0f64] }
-- output { 10 42i64 2.75f32 -3.0f64 }
-- input { [2147483647, 1] [4294967296i64, 4294967296i64] [1.0f32] [3.0f64] }
-- output { -2147483648 0i64 1.0f32 3.0f64 }
-- input { empty([0]i32) empty([0]i64) empty([0]f32) empty([0]f64) }
-- output { 0 1i64 0.0f32 1.0f64 }
entry main (a: []i32) (b: []i64) (c: []f32) (d: []f64) : (i32, i64, f32, f64) =
  (i32.sum a, i64.product b, f32.sum c, f64.product d)
