-- Underscores inside numeric literals are ignored.
-- ==
-- input { 1 } output { 1000001 256 10 1000.5f64 }
-- input { -1 } output { 999999 254 8 999.5f64 }
entry main (x: i32) : (i32, i32, i32, f64) =
  (1_000_000 + x, 0xf_f + x, 0b10_01 + x, 1_000.0 + 0.5 * f64.i32 x)
