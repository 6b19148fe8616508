-- Negative literals at the extremes of each signed type.
-- ==
-- input { 0i8 } output { -128i8 -32768i16 -2147483648i32 -9223372036854775808i64 }
-- input { 1i8 } output { -127i8 -32767i16 -2147483647i32 -9223372036854775807i64 }
entry main (k: i8) : (i8, i16, i32, i64) =
  (-128i8 + k, -32768i16 + i16.i8 k, -2147483648i32 + i32.i8 k,
   -9223372036854775808i64 + i64.i8 k)
