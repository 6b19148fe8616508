-- Arithmetic on u16 and u32 wraps modulo 2^16 / 2^32; unsigned comparisons and division.
-- ==
-- input { 65535u16 1u16 3000000000u32 } output { 0u16 65534u16 1705032704u32 1000000000u32 true }
-- input { 10u16 20u16 7u32 } output { 30u16 65526u16 14u32 2u32 false }
entry main (a: u16) (b: u16) (c: u32) : (u16, u16, u32, u32, bool) =
  (a + b, a - b, c * 2, c / 3, c > 2147483647)
