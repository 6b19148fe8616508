-- Largest unsigned literals, in inputs, in the program and in outputs.
-- ==
-- input { 18446744073709551615u64 } output { 18446744073709551614u64 4294967295u32 65535u16 255u8 }
-- input { 1u64 } output { 0u64 4294967295u32 65535u16 255u8 }
entry main (x: u64) : (u64, u32, u16, u8) =
  (x - 1u64, 4294967295u32, 0xffffu16, 255u8)
