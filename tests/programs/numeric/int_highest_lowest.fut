-- highest and lowest of every integer type.
-- ==
-- input { 0i32 }
-- output { 127i8 -128i8 32767i16 -32768i16 2147483647i32 -2147483648i32 9223372036854775807i64 -9223372036854775808i64 255u8 0u8 65535u16 0u16 4294967295u32 0u32 18446744073709551615u64 0u64 }
entry main (k: i32) : (i8, i8, i16, i16, i32, i32, i64, i64, u8, u8, u16, u16, u32, u32, u64, u64) =
  (i8.highest + i8.i32 k, i8.lowest, i16.highest, i16.lowest, i32.highest, i32.lowest + k,
   i64.highest, i64.lowest, u8.highest, u8.lowest, u16.highest, u16.lowest,
   u32.highest, u32.lowest, u64.highest, u64.lowest)
