-- Scans with a commutative operator: their block totals are read interleaved over the
-- block's threads (comm_reduce in codegen/block_kernels.cpp's tiled_body), not in
-- warp-contiguous tiles. Sizes around a block's part and over many blocks, a map fused
-- into the scan whose index check fails in the middle and at the last element, and
-- an operator that is not a single one (stays on the order-keeping path).
-- ==
-- entry: gathered
-- input { 0i64 0i64 } output { 0i64 0i64 }
-- input { 1i64 0i64 } output { 0i64 1i64 }
-- input { 257i64 0i64 } output { 0i64 33153i64 }
-- input { 100003i64 0i64 } output { 0i64 5000350006i64 }
-- no_interp input { 3000001i64 0i64 } output { 0i64 4500004500001i64 }
-- input { 100003i64 50001i64 } error: Index \[100003\] out of bounds for array of shape \[100003\]
-- input { 100003i64 100002i64 } error: Index \[100003\] out of bounds for array of shape \[100003\]
-- no_interp input { 3000001i64 1234567i64 } error: Index \[3000001\] out of bounds for array of shape \[3000001\]

-- ==
-- entry: maxes
-- input { 0i64 } output { 0i64 -2147483648i32 }
-- input { 5i64 } output { 0i64 11i32 }
-- input { 100000i64 } output { 0i64 100006i32 }

-- Scans (+) of a[idx[i]] where idx[i] = i except idx[bad] = n (out of bounds when bad
-- > 0): the number of elements that are not the triangle numbers (i + 1)(i + 2) / 2,
-- and the last one.
entry gathered (n: i64) (bad: i64) : (i64, i64) =
  let a = map (+ 1) (iota n)
  let idx = map (\i -> if bad > 0 && i == bad then n else i) (iota n)
  let s = scan (+) 0 (map (\i -> a[i]) idx)
  let wrong = reduce (+) 0 (map (\i -> if s[i] == (i + 1) * (i + 2) / 2 then 0 else 1) (iota n))
  in (wrong, if n == 0 then 0 else s[n - 1])

-- A running maximum (i32.max: commutative) of a permutation-like sequence, checked
-- against its recurrence.
entry maxes (n: i64) : (i64, i32) =
  let xs = map (\i -> i32.i64 ((i * 7919) % (n + 7))) (iota n)
  let s = scan i32.max i32.lowest xs
  let wrong = reduce (+) 0 (map (\i -> if s[i] == (if i == 0 then xs[0] else i32.max s[i - 1] xs[i]) then 0 else 1)
                                 (iota n))
  in (wrong, if n == 0 then i32.lowest else s[n - 1])
