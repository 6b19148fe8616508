-- Shifts on u32 and u64: >> is logical on unsigned types; << drops high bits.
-- ==
-- input { 2147483648u32 31u32 9223372036854775808u64 63u64 } output { 1u32 1u32 0u32 1u64 0u64 }
-- input { 4294967295u32 4u32 1u64 1u64 } output { 268435455u32 268435455u32 4294967280u32 0u64 2u64 }
entry main (a: u32) (s: u32) (b: u64) (t: u64) : (u32, u32, u32, u64, u64) =
  (a >> s, a >>> s, a << s, b >> t, b << t)
