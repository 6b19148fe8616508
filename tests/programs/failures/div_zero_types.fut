-- Division by zero fails for i8, i16, i64, u8, u32 and u64 operands.
-- ==
-- input { 1i8 1i16 1i64 1u8 1u32 1u64 } output { 100i8 100i16 100i64 100u8 100u32 100u64 }
-- input { 0i8 1i16 1i64 1u8 1u32 1u64 } error: division by zero
-- input { 1i8 0i16 1i64 1u8 1u32 1u64 } error: division by zero
-- input { 1i8 1i16 0i64 1u8 1u32 1u64 } error: division by zero
-- input { 1i8 1i16 1i64 0u8 1u32 1u64 } error: division by zero
-- input { 1i8 1i16 1i64 1u8 0u32 1u64 } error: division by zero
-- input { 1i8 1i16 1i64 1u8 1u32 0u64 } error: division by zero
entry main (a: i8) (b: i16) (c: i64) (d: u8) (e: u32) (f: u64) : (i8, i16, i64, u8, u32, u64) =
  (100 / a, 100 // b, 100 % c + 100 / c, 100 %% d + 100 / d, 100 / e, 100 // f)
