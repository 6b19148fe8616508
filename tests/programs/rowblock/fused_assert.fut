-- A row read twice (copied into shared memory) by a map whose other array is a map
-- fused into it that can fail (an assert): the fused map is computed before the copy,
-- and its failure edge skips the copy's address (a warp per row, 2048 rows or more on
-- the GPU). Found by kerb difftest (seed 600521): the CUDA module was invalid ("does
-- not dominate all uses"), an internal compiler error.
-- ==
-- entry: main
-- random input { [2048][64]f32 [2048]i32 -2147483648i32 } auto output
-- random input { [5][70]f32 [5]i32 -2147483648i32 } auto output
entry main [n][m] (xs: [n][m]f32) (ys: [n]i32) (t: i32) : [n]f32 =
  map2 (\y x -> let a = reduce f32.max (-f32.inf) x
                in reduce (+) 0f32 (map (\v -> v - a) x) + f32.i32 y)
       (map (\v -> assert (v != t) v) ys) xs

-- The assert failing in the first, a middle or the last row.
-- ==
-- entry: fails
-- input { 2048i64 -1i32 } auto output
-- input { 2048i64 0i32 } error: Assertion is false
-- input { 2048i64 1000i32 } error: Assertion is false
-- input { 2048i64 2047i32 } error: Assertion is false
entry fails (n: i64) (t: i32) : [n]f32 =
  let xs = map (\i -> map (\j -> f32.i64 ((i * 7 + j) % 11)) (iota 64)) (iota n)
  let ys = map i32.i64 (iota n)
  in main xs ys t
