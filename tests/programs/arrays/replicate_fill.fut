-- replicate of a scalar as a memset (Note [Replicate as a memset]): every element
-- width, values whose bytes differ, 8-byte values whose halves are equal (a memset of
-- 32-bit words) or not (a kernel: 1f64, -0f64, a variable), lengths 0, 1 and more than
-- a block, and a zero-filled array that reduce_by_index starts from.
-- ==
-- input { 3i64 -2i8 513i16 7.5f16 true }
-- output { [-2i8, -2i8, -2i8] [513i16, 513i16, 513i16] [7.5f16, 7.5f16, 7.5f16]
--          [true, true, true] [200u8, 200u8, 200u8] [0x01020304u32, 0x01020304u32, 0x01020304u32]
--          [-1i64, -1i64, -1i64] [0f64, 0f64, 0f64] [1f64, 1f64, 1f64] [-0f64, -0f64, -0f64]
--          [4294967297i64, 4294967297i64, 4294967297i64] [3i64, 3i64, 3i64] [2i32, 0i32, 1i32] 6 }
-- input { 1i64 0i8 0i16 -0f16 false }
-- output { [0i8] [0i16] [-0f16] [false] [200u8] [0x01020304u32] [-1i64] [0f64] [1f64] [-0f64]
--          [4294967297i64] [1i64] [2i32, 0i32, 1i32] 2 }
-- input { 0i64 1i8 1i16 1f16 true }
-- output { empty([0]i8) empty([0]i16) empty([0]f16) empty([0]bool) empty([0]u8) empty([0]u32)
--          empty([0]i64) empty([0]f64) empty([0]f64) empty([0]f64) empty([0]i64) empty([0]i64)
--          [2i32, 0i32, 1i32] 0 }
-- input { 1000i64 5i8 -1i16 0.25f16 true }
-- output { [5i8, 5i8, 5i8] [-1i16, -1i16, -1i16] [0.25f16, 0.25f16, 0.25f16] [true, true, true]
--          [200u8, 200u8, 200u8] [0x01020304u32, 0x01020304u32, 0x01020304u32]
--          [-1i64, -1i64, -1i64] [0f64, 0f64, 0f64] [1f64, 1f64, 1f64] [-0f64, -0f64, -0f64]
--          [4294967297i64, 4294967297i64, 4294967297i64] [1000i64, 1000i64, 1000i64]
--          [2i32, 0i32, 1i32] 2000 }
entry main (n: i64) (a: i8) (b: i16) (c: f16) (d: bool)
    : ([]i8, []i16, []f16, []bool, []u8, []u32, []i64, []f64, []f64, []f64, []i64, []i64, []i32, i64) =
  let k = i64.min n 3
  let counts = reduce_by_index (replicate 3 0i32) (+) 0 [0, 0, 2] [1, 1, 1]
  let big = replicate n 1i64
  in (replicate k a, replicate k b, replicate k c, replicate k d, replicate k 200u8,
      replicate k 0x01020304u32, replicate k (-1i64), replicate k 0f64, replicate k 1f64,
      replicate k (-0f64), replicate k 4294967297i64, replicate k n, counts,
      reduce (+) 0 big + i64.sum (replicate n 1))
