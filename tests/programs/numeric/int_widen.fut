-- Widening conversions between signed and unsigned types of different widths.
-- ==
-- input { -2i8 254u8 -2i64 } output { -2i64 254i64 254u32 4294967294u32 -2i16 18446744073709551614u64 }
-- input { 5i8 5u8 5i64 } output { 5i64 5i64 5u32 5u32 5i16 5u64 }
entry main (a: i8) (b: u8) (c: i64) : (i64, i64, u32, u32, i16, u64) =
  (i64.i8 a, i64.u8 b, u32.u8 b, u32.i64 c, i16.i8 a, u64.i64 c)
