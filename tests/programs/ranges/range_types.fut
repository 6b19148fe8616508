-- Ranges over i8, u8, u32 and i64 elements keep the element type.
-- ==
-- input { 3i8 250u8 } output { [0i8, 1i8, 2i8] [250u8, 251u8, 252u8, 253u8, 254u8, 255u8] [1u32, 3u32, 5u32] 10i64 }
-- input { 0i8 255u8 } output { empty([0]i8) [255u8] [1u32, 3u32, 5u32] 10i64 }
entry main (n: i8) (m: u8) : ([]i8, []u8, []u32, i64) =
  (0..<n, m...255, 1..3...6u32, reduce (+) 0 (1...4i64))
