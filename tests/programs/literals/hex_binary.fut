-- Hexadecimal and binary integer literals, with and without suffixes.
-- ==
-- input { 0 } output { 255 10 255u8 2147483647 -1i32 48879i64 }
-- input { 1 } output { 256 11 0u8 -2147483648 0i32 48880i64 }
entry main (x: i32) : (i32, i32, u8, i32, i32, i64) =
  (0xff + x, 0b1010 + x, 0xFFu8 + u8.i32 x, 0x7fffffff + x, 0xffffffffi32 + x, 0xBEEFi64 + i64.i32 x)
