-- Two reduce_by_index of one body run as one hist_shared kernel (Note [Histograms in
-- one kernel] in codegen/thread_kernels.cpp): the first waits for the second, past the
-- statements in between. Counts (i32) and sums (i64, f64) of different lengths, one
-- with more bins than fit in shared memory, empty ones, indices out of range ignored,
-- the first's result read in between (then no pair), a second whose operator has no
-- atomic (then each alone), and failures in either one's fused map.
-- ==
-- entry: pair
-- input { 5i64 1000i64 3i64 } output { 2140i64 58847i64 1501281i64 }
-- input { 5i64 0i64 3i64 } output { 0i64 0i64 0i64 }
-- input { 1i64 4099i64 1i64 } output { 1366i64 4097i64 2049123i64 }
-- input { 3000i64 20011i64 2i64 } output { 10010110i64 60048665i64 20018795i64 }
-- input { 0i64 100i64 4i64 } output { 0i64 0i64 196134i64 }
def weigh [m] (xs: [m]i64) : i64 = reduce (+) 0 (map2 (\x j -> x * (j % 1000 + 1)) xs (iota m))

def pair_hists (k: i64) (n: i64) (d: i64) : ([]i32, []i64, []f64) =
  let owner = map (\i -> (i * 7919) % (k + 2) - 1) (iota n)
  let counts = reduce_by_index (replicate k 0i32) (+) 0i32 owner (map (\_ -> 1i32) owner)
  let m = n * d
  let big = reduce_by_index (replicate (k * d) 0i64) (+) 0i64
                            (map (\q -> owner[q / d] * d + q % d) (iota m))
                            (map (\q -> q % 7) (iota m))
  let wide = reduce_by_index (replicate 5000 0f64) (+) 0f64
                             (map (\q -> (q * 31) % 5003) (iota m))
                             (map (\q -> f64.i64 (q % 3)) (iota m))
  in (counts, big, wide)

entry pair (k: i64) (n: i64) (d: i64) : (i64, i64, i64) =
  let (c, b, w) = pair_hists k n d
  in (weigh (map i64.i32 c), weigh b, weigh (map i64.f64 w))

-- The first's result read before the second: two kernels, the same results.
-- ==
-- entry: read_between
-- input { 4i64 [0i64, 1i64, 1i64, 3i64, 7i64] } output { [1i32, 2i32, 0i32, 1i32] [2i32, 6i32, 0i32, 5i32] }
entry read_between (k: i64) (is: []i64) : ([]i32, []i32) =
  let c = reduce_by_index (replicate k 0i32) (+) 0i32 is (map (\_ -> 1i32) is)
  let w = c[1]
  let s = reduce_by_index (replicate k 0i32) (+) 0i32 is (map (\i -> i32.i64 i + w) is)
  in (c, s)

-- The second's operator has no atomic (a compare-and-swap loop): each alone.
-- ==
-- entry: cas_second
-- input { 4i64 [0i64, 1i64, 1i64, 3i64, 7i64, -1i64] } output { [1i32, 2i32, 0i32, 1i32] [1.5f32, 6.25f32, 1.0f32, 4.5f32] }
entry cas_second (k: i64) (is: []i64) : ([]i32, []f32) =
  let c = reduce_by_index (replicate k 0i32) (+) 0i32 is (map (\_ -> 1i32) is)
  let s = reduce_by_index (replicate k 1f32) (*) 1f32 is (map (\i -> f32.i64 i + 1.5) is)
  in (c, s)

-- A division by zero in the first's (bad1 >= 0) or the second's (bad2 >= 0) fused map,
-- near the end of the updates.
-- ==
-- entry: fails
-- input { 3i64 5000i64 -1i64 -1i64 } output { [13i64, 7i64, 4i64] [13i64, 3i64, 4i64] }
-- input { 3i64 5000i64 4990i64 -1i64 } error: division by zero
-- input { 3i64 5000i64 -1i64 4997i64 } error: division by zero
-- input { 3i64 5000i64 4990i64 4997i64 } error: division by zero
entry fails (k: i64) (n: i64) (bad1: i64) (bad2: i64) : ([]i64, []i64) =
  let a = reduce_by_index (replicate k 0i64) (+) 0i64
                          (map (\i -> i % (k + 1)) (iota n))
                          (map (\i -> 10 / (i - bad1)) (iota n))
  let b = reduce_by_index (replicate k 0i64) (+) 0i64
                          (map (\i -> (i * 3) % (k + 1)) (iota n))
                          (map (\i -> 10 / (i - bad2)) (iota n))
  in (a, b)

-- A size check between them that fails (the second's values, coerced to the length of
-- its indices, are longer), and the first's fused map failing too: compiled code may
-- report either, the first map's element failing (the interpreter's) or the size check
-- on the host.
-- ==
-- entry: check_between
-- input { 3i64 100i64 -1i64 } error: cannot match shape|division by zero
-- input { 3i64 100i64 50i64 } error: cannot match shape|division by zero
entry check_between (k: i64) (n: i64) (bad: i64) : ([]i64, []i64) =
  let a = reduce_by_index (replicate k 0i64) (+) 0i64
                          (map (\i -> i % (k + 1)) (iota n))
                          (map (\i -> 10 / (i - bad)) (iota n))
  let b = reduce_by_index (replicate k 0i64) (+) 0i64 (iota n) (iota (n + 1) :> [n]i64)
  in (a, b)


