-- More module reductions: i64.maximum/minimum, f64.sum, i16.sum (wraps at 16 bits),
-- u32.product (wraps at 32 bits), i8.minimum of empty (highest).
-- ==
-- input { [5i64, -9i64, 7i64] [0.5f64, 0.125f64] [30000i16, 30000i16] [65536u32, 65537u32] empty([0]i8) }
-- output { 7i64 -9i64 0.625f64 -5536i16 65536u32 127i8 }
entry main (a: []i64) (b: []f64) (c: []i16) (d: []u32) (e: []i8) : (i64, i64, f64, i16, u32, i8) =
  (i64.maximum a, i64.minimum a, f64.sum b, i16.sum c, u32.product d, i8.minimum e)
