-- Binary and hexadecimal literals with type suffixes, upper-case prefixes and underscores.
-- ==
-- input { 0u8 } output { 255u8 -1i8 -32768i16 3405691582u32 10i64 4294967296u64 }
-- input { 1u8 } output { 0u8 0i8 -32767i16 3405691583u32 11i64 4294967297u64 }
entry main (k: u8) : (u8, i8, i16, u32, i64, u64) =
  (0b1111_1111u8 + k, 0xFFi8 + i8.u8 k, 0X8000i16 + i16.u8 k, 0xCAFE_BABEu32 + u32.u8 k,
   0B1010i64 + i64.u8 k, 0x1_0000_0000u64 + u64.u8 k)
