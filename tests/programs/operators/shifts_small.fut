-- Shifts on u8 (logical both ways) and i8 (arithmetic >>, logical >>>).
-- ==
-- input { 200u8 3u8 -100i8 2i8 } output { 64u8 25u8 25u8 112i8 -25i8 39i8 }
-- input { 1u8 7u8 64i8 1i8 }     output { 128u8 0u8 0u8 -128i8 32i8 32i8 }
entry main (a: u8) (s: u8) (b: i8) (t: i8) : (u8, u8, u8, i8, i8, i8) =
  (a << s, a >> s, a >>> s, b << t, b >> t, b >>> t)
