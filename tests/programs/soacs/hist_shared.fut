-- reduce_by_index with an atomic update (Note [Histograms in shared memory] in
-- codegen/thread_kernels.cpp): per-block histograms in shared memory when the bins fit
-- (4096 of 32 bits, 2048 of 64 bits: the cases around those counts), else atomics on
-- the result in the same kernel; every atomic operator (its identity starts the shared
-- bins), starting values that are not the identity, indices out of range (-1, m, m + 1)
-- ignored. Checksums of the histograms (float values are halves: exact in any order).
-- `fails`: a division by zero in the fused value map.
-- ==
-- entry: bins
-- input { 0i64 1000i64 } output { 0i32 0i32 0i32 0i32 0i32 0i32 0i64 0i64 0.0f32 }
-- input { 1i64 0i64 } output { 3i32 100i32 -100i32 -1i32 0i32 5i32 1i64 0i64 0.0f32 }
-- input { 5i64 100000i64 } output { -62455i32 -7445i32 7435i32 43i32 -77i32 75i32 8408967910i64 1424930i64 -31250.0f32 }
-- input { 2048i64 100000i64 } output { -2685769i32 -50546380i32 50435414i32 0i32 -103426i32 819713i32 226279232373i64 9624533758i64 -25129.5f32 }
-- input { 2049i64 100000i64 } output { -2152149i32 -50628747i32 50523773i32 155161i32 -258659i32 237657i32 226274712938i64 9597568883i64 -24346.0f32 }
-- input { 4096i64 100000i64 } output { -1570624i32 -99188707i32 99010986i32 0i32 -207636i32 1926768i32 227741334726i64 18897055686i64 -24174.5f32 }
-- input { 4097i64 100000i64 } output { -155040i32 -93511955i32 93411745i32 311497i32 -519275i32 -390072i32 227911862182i64 18903667743i64 -22412.5f32 }
-- input { 20000i64 300000i64 } output { -4305022i32 -470414306i32 469413030i32 0i32 -1019901i32 -530496i32 687646403692i64 90229020973i64 -74870.0f32 }

-- ==
-- entry: fails
-- input { 4i64 100000i64 -1i64 } output { [140000i32, 140000i32, 140000i32, 140000i32] }
-- input { 4i64 100000i64 0i64 } error: division by zero[\s\S]*hist_shared\.fut:45:62-
-- input { 4i64 100000i64 77777i64 } error: division by zero[\s\S]*hist_shared\.fut:45:62-
-- input { 4i64 100000i64 99999i64 } error: division by zero[\s\S]*hist_shared\.fut:45:62-

def checksum32 [m] (h: [m]i32) : i32 = reduce (+) 0 (map2 (\i x -> x * (i32.i64 (i % 101) + 1)) (iota m) h)
def checksum64 [m] (h: [m]i64) : i64 = reduce (+) 0 (map2 (\i x -> x * (i % 101 + 1)) (iota m) h)

entry bins (m: i64) (n: i64) : (i32, i32, i32, i32, i32, i32, i64, i64, f32) =
  let is = map (\i -> (i * 7919) % (m + 3) - 1) (iota n)
  let vs = map (\i -> i32.i64 ((i * 31) % 1000) - 500) (iota n)
  let ws = map (\i -> (i * i) % 100003 - 5000) (iota n)
  in (checksum32 (reduce_by_index (replicate m 3i32) (+) 0 is vs),
      checksum32 (reduce_by_index (replicate m 100i32) i32.min i32.highest is vs),
      checksum32 (reduce_by_index (replicate m (-100i32)) i32.max i32.lowest is vs),
      checksum32 (reduce_by_index (replicate m (-1i32)) (&) (-1) is vs),
      checksum32 (reduce_by_index (replicate m 0i32) (|) 0 is vs),
      checksum32 (reduce_by_index (replicate m 5i32) (^) 0 is vs),
      checksum64 (reduce_by_index (replicate m 1i64) (+) 0 is ws),
      checksum64 (reduce_by_index (replicate m 0i64) i64.max i64.lowest is ws),
      reduce (+) 0 (reduce_by_index (replicate m 0f32) (+) 0 is (map (\v -> f32.i32 v * 0.5) vs)))

entry fails (m: i64) (n: i64) (bad: i64) : [m]i32 =
  let is = map (\i -> i % (m + 1)) (iota n)
  in reduce_by_index (replicate m 0i32) (+) 0 is (map (\i -> 7 / (if i == bad then 0 else 1)) (iota n))
