-- kmeans' accumulation: per-centre counts (a reduce_by_index over n points) and sums (a
-- reduce_by_index over n x d slots, `owner[i] * d + f`, whose index map, flattened
-- (compiler/flatten_nested_maps.cpp), is fused into the histogram kernel: a gather and
-- a division and remainder by d per update, Note [Histograms in shared memory]). The
-- owners include -1 and k, whose updates are out of range and ignored. Sizes that are not
-- multiples of a block, no points, one centre, one feature, no centres, more bins than
-- fit in shared memory (k * d > 4096), the points as an input or computed (then the
-- values are a flattened map too), and a failing check in the fused index map. The
-- values are small integers, so the float sums are exact in any order.
-- ==
-- entry: small
-- input { 3i64 10i64 [0f32, 100f32] } output { [13.0f32, 207.0f32, 11.0f32, 205.0f32, 9.0f32, 213.0f32] [2i32, 2i32, 2i32] }
-- input { 3i64 0i64 [0f32, 100f32] } output { [0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32] [0i32, 0i32, 0i32] }
-- input { 0i64 10i64 [0f32, 100f32] } output { empty([0]f32) empty([0]i32) }
-- input { 3i64 10i64 empty([0]f32) } output { empty([0]f32) [2i32, 2i32, 2i32] }
entry small [d] (k: i64) (n: i64) (base: [d]f32) : ([]f32, []i32) =
  let owner = map (\i -> (i * 7919) % (k + 2) - 1) (iota n)
  let pts = map (\i -> map (\f -> base[f] + f32.i64 ((i * 31 + f * 7) % 10)) (iota d)) (iota n)
  let counts = reduce_by_index (replicate k 0i32) (+) 0i32 owner (map (\_ -> 1i32) owner)
  let slots = flatten (map (\i -> map (\f -> owner[i] * d + f) (iota d)) (iota n))
  let sums = reduce_by_index (replicate (k * d) 0f32) (+) 0f32 slots (flatten pts)
  in (sums, counts)

-- Checksums (exact: integer-valued sums) of the same over larger sizes.
-- ==
-- entry: large
-- input { 8i64 4099i64 16i64 } output { 41480196i64 14759i64 }
-- input { 1i64 4099i64 16i64 } output { 2693822i64 1366i64 }
-- input { 8i64 4099i64 1i64 } output { 63951i64 14759i64 }
-- input { 7i64 100000i64 3i64 } output { 14272068i64 311108i64 }
-- input { 1000i64 20011i64 5i64 } output { 325023635i64 9995861i64 }
-- input { 1i64 1i64 1i64 } output { 0i64 0i64 }
entry large (k: i64) (n: i64) (d: i64) : (i64, i64) =
  let (sums, counts) = small k n (map f32.i64 (iota d))
  in (reduce (+) 0 (map2 (\s j -> i64.f32 s * (j % 1000 + 1)) (sums :> [k * d]f32) (iota (k * d))),
      reduce (+) 0 (map2 (\c j -> i64.i32 c * (j + 1)) (counts :> [k]i32) (iota k)))

-- The points as an input (bench/kmeans.fut's shape).
-- ==
-- entry: given
-- input { 2i64 [0i64, 1i64, 1i64, 2i64, -1i64] [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32], [10f32, 11f32, 12f32], [13f32, 14f32, 15f32]] }
-- output { [1f32, 2f32, 3f32, 11f32, 13f32, 15f32] [1i32, 2i32] }
entry given [n][d] (k: i64) (owner: [n]i64) (pts: [n][d]f32) : ([]f32, []i32) =
  let counts = reduce_by_index (replicate k 0i32) (+) 0i32 owner (map (\_ -> 1i32) owner)
  let slots = flatten (map (\i -> map (\f -> owner[i] * d + f) (iota d)) (iota n))
  let sums = reduce_by_index (replicate (k * d) 0f32) (+) 0f32 slots (flatten pts)
  in (sums, counts)

-- A division by zero in the fused index map (f == bad), for one of the last updates.
-- ==
-- entry: fails
-- input { 4i64 5000i64 -1i64 [1i64, 2i64, 3i64] } output { 226597i64 }
-- input { 4i64 5000i64 2i64 [1i64, 2i64, 3i64] } error: division by zero
entry fails [d] (k: i64) (n: i64) (bad: i64) (w: [d]i64) : i64 =
  let owner = map (\i -> (i * 7919) % (k + 2) - 1) (iota n)
  let slots = flatten (map (\i -> map (\f -> owner[i] * d + f + (if i < n - 3 then 0 else 1 / (f - bad)))
                                       (iota d))
                           (iota n))
  let sums = reduce_by_index (replicate (k * d) 0i64) (+) 0i64 slots (map (\q -> q % 5 + w[q % d]) (iota (n * d)))
  in reduce (+) 0 (map2 (*) sums (iota (k * d)))

