-- A map over scalars whose lambda reduces over arrays of the host that every element
-- reads whole (N-body's shape, bench/nbody.fut; Note [Arrays every element reads] in
-- codegen/extract_kernels.cpp): one warp per element for rows of 64 to 1024 and at
-- least 2048 elements, one block per element for longer rows or fewer elements, one
-- thread per element for rows under 64 (two reductions in the lambda: no segmented
-- reduction). Integer sums of a triple (reduce_comm) and a maximum per element against
-- a loop over the same terms; results: how many elements differ, and a sum over all of
-- them. A division by zero inside the reduction's map in one element (the first, one
-- in the middle, the last): the interpreter's message and location.
-- ==
-- input { 3000i64 100i64 -1i64 } output { 0i64 2455928i64 }
-- input { 3000i64 63i64 -1i64 } output { 0i64 839072i64 }
-- input { 300i64 1100i64 -1i64 } output { 0i64 1317697i64 }
-- input { 300i64 100i64 -1i64 } output { 0i64 246887i64 }
-- input { 0i64 100i64 -1i64 } output { 0i64 0i64 }
-- input { 3000i64 0i64 -1i64 } output { 0i64 0i64 }
-- input { 3000i64 100i64 0i64 }
-- error: division by zero[\s\S]*host_arrays\.fut:39:44-53
-- input { 300i64 1100i64 150i64 }
-- error: division by zero[\s\S]*host_arrays\.fut:39:44-53
-- input { 3000i64 100i64 2999i64 }
-- error: division by zero[\s\S]*host_arrays\.fut:39:44-53
-- input { 300i64 63i64 299i64 }
-- error: division by zero[\s\S]*host_arrays\.fut:39:44-53

def value (q: i64) (s: i64) : i64 = (q * 7 + s) % 23 - 11

entry main (n: i64) (m: i64) (bad: i64) : (i64, i64) =
  let xs = map (\i -> value i 3) (iota n)
  -- (scans: materialised, not computed where read)
  let ys = scan (+) 0 (map (\j -> value j 5) (iota m))
  let ws = scan (+) 0 (map (\j -> value j 1) (iota m))
  let sums =
    map2 (\i x ->
            let d = if i == bad then 0 else 1 + i % 3
            let (a, b, c) =
              reduce_comm (\(a1, b1, c1) (a2, b2, c2) -> (a1 + a2, b1 + b2, c1 + c2)) (0i64, 0i64, 0i64)
                          (map2 (\y w -> (x * y,
                                          (y - x) / d,
                                          w * y))
                                ys ws)
            let mx = reduce i64.max i64.lowest (map2 (\y w -> x * w - y) ys ws)
            in (a, b, c, mx))
         (iota n) xs
  let loops =
    map2 (\i x ->
            let d = 1 + i % 3
            in loop (a, b, c, mx) = (0i64, 0i64, 0i64, i64.lowest) for j < m do
                 (a + x * ys[j], b + (ys[j] - x) / d, c + ws[j] * ys[j], i64.max mx (x * ws[j] - ys[j])))
         (iota n) xs
  -- (read by index: kept in memory, not computed inside the sums that read them)
  let (a, b, c, mx) = unzip4 sums
  let (la, lb, lc, lmx) = unzip4 loops
  let differ = map (\i -> i64.bool (a[i] != la[i] || b[i] != lb[i] || c[i] != lc[i] || mx[i] != lmx[i])) (iota n)
  in (i64.sum differ, i64.sum (map (\i -> a[i] + b[i] * 3 + c[i] * 5 + mx[i] * 7) (iota n)))
