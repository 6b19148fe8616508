-- Unsigned division and remainder treat the operands as unsigned (large values stay positive).
-- ==
-- input { 250u8 7u8 4294967295u32 10u32 }
-- output { 35u8 5u8 35u8 5u8 429496729u32 5u32 429496729u32 5u32 }
-- input { 7u8 250u8 5u32 4294967295u32 }
-- output { 0u8 7u8 0u8 7u8 0u32 5u32 0u32 5u32 }
entry main (a: u8) (b: u8) (c: u32) (d: u32) : (u8, u8, u8, u8, u32, u32, u32, u32) =
  (a / b, a % b, a // b, a %% b, c / d, c % d, c // d, c %% d)
