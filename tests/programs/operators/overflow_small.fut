-- i8 and u8 arithmetic wraps; u64 wraps at 2^64.
-- ==
-- input { 100i8 3i8 0u8 1u8 0u64 }
-- output { 44i8 -53i8 -100i8 255u8 1u8 0u8 1u64 18446744073709551615u64 }
-- input { -128i8 -1i8 250u8 10u8 18446744073709551615u64 }
-- output { -128i8 -29i8 -128i8 240u8 4u8 196u8 0u64 18446744073709551614u64 }
entry main (a: i8) (b: i8) (c: u8) (d: u8) (e: u64) : (i8, i8, i8, u8, u8, u8, u64, u64) =
  (a * b, a + b + 100, -a, c - d, c + d, c * d, e + 1, e - 1)
