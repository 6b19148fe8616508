-- Literals near the top of each signed type, and i64 literals beyond 32 bits.
-- ==
-- input { 0i64 } output { 127i8 32767i16 2147483647i32 9223372036854775807i64 4294967296i64 }
-- input { -1i64 } output { 126i8 32766i16 2147483646i32 9223372036854775806i64 4294967295i64 }
entry main (k: i64) : (i8, i16, i32, i64, i64) =
  (127i8 + i8.i64 k, 32767i16 + i16.i64 k, 2147483647 + i32.i64 k,
   9223372036854775807 + k, 4294967296 + k)
