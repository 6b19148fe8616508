-- Comparisons on unsigned types treat the high bit as magnitude, not sign.
-- ==
-- input { 4294967295u32 1u32 255u8 128u8 } output { true false true 4294967294u32 }
-- input { 0u32 1u32 0u8 1u8 } output { false true false 4294967295u32 }
entry main (a: u32) (b: u32) (c: u8) (d: u8) : (bool, bool, bool, u32) =
  (a > b, a < b, c >= d, a - b)
