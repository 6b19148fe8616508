-- Found by kerb difftest on the GPU (seeds 100010 and 56 more of 100000..100999, interp
-- vs cuda): CUDA_ERROR_MISALIGNED_ADDRESS. Arrays made inside a kernel live in the
-- thread's arena at base + thread * size, and the size (the sum of the arrays' bytes,
-- each padded by 16) was not a multiple of 16: from the second thread on, an i64, f64
-- or f16 array in the arena was misaligned, which faults on the GPU (x86 does not care,
-- so the CPU device agreed). The arena size is rounded up to 16 bytes now. Here: 5 u8
-- and 3 i64 (61 bytes a thread), 3 u16 and 2 f64, and one f16 after 7 bools.
-- ==
-- entry: bytes_then_words
-- input { [1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64, 8i64, 9i64] }
-- output { [18i64, 26i64, 34i64, 42i64, 50i64, 58i64, 66i64, 74i64, 82i64] }
-- ==
-- entry: halves_then_doubles
-- input { [1f64, 2f64, 3f64, 4f64, 5f64] }
-- output { [6.0f64, 8.0f64, 10.0f64, 12.0f64, 14.0f64] }
-- ==
-- entry: bools_then_half
-- input { [1f16, 2f16, 3f16, 4f16, 5f16, 6f16] }
-- output { [5f16, 6f16, 7f16, 8f16, 9f16, 10f16] }

entry bytes_then_words (xs: []i64) : []i64 =
  map (\x -> let bs = map (\k -> u8.i64 (x + k)) (iota 5)
             let ws = map (\k -> x * k) (iota 3)
             in i64.u8 (reduce (+) 0 (reverse bs)) + reduce (+) 0 (reverse ws)) xs

entry halves_then_doubles (xs: []f64) : []f64 =
  map (\x -> let hs = map (\k -> u16.i64 k) (iota 3)
             let ds = map (\k -> x + f64.i64 k) (iota 2)
             in f64.u16 (reduce (+) 0 (reverse hs)) + reduce (+) 0 (reverse ds)) xs

entry bools_then_half (xs: []f16) : []f16 =
  map (\x -> let bs = map (\k -> k % 2 == 0) (iota 7)
             let hs = map (\k -> x + f16.i64 k) (iota 1)
             in f16.i64 (reduce (+) 0 (map (\b -> if b then 1i64 else 0) (reverse bs))) + reduce (+) 0 (reverse hs)) xs
