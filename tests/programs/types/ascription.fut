-- Type ascription e : t fixes the type of unsuffixed literals and checks expression types.
-- ==
-- input { 3u8 } output { 253u8 1.5f64 [1i16, 2i16] 7i64 }
-- input { 0u8 } output { 0u8 1.5f64 [1i16, 2i16] 7i64 }
entry main (x: u8) : (u8, f64, []i16, i64) =
  ((0 : u8) - x, (1.5 : f64), ([1, 2] : []i16), (3 + 4 : i64))
