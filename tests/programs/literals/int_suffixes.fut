-- Integer literals with every type suffix, added to an input so they are not folded away.
-- ==
-- input { 0i64 }  output { 1i8 2i16 3i32 4i64 5u8 6u16 7u32 8u64 }
-- input { 10i64 } output { 11i8 12i16 13i32 14i64 15u8 16u16 17u32 18u64 }
entry main (k: i64) : (i8, i16, i32, i64, u8, u16, u32, u64) =
  (1i8 + i8.i64 k, 2i16 + i16.i64 k, 3i32 + i32.i64 k, 4i64 + k,
   5u8 + u8.i64 k, 6u16 + u16.i64 k, 7u32 + u32.i64 k, 8u64 + u64.i64 k)
