-- reduce_comm with tuple operators. The program's word that the operator commutes
-- (core IR `reduce_comm`) gives any operator the commutative block reduction
-- (docs/CODEGEN.md), which reads four consecutive elements per thread with vector
-- loads when the arrays are aligned (Note [Commutative reductions in lanes] in
-- codegen/block_kernels.cpp): arrays read whole (`zip ds (iota n)`) and arrays indexed
-- by the element of a map over iota (`map (\i -> ds[i]) (iota n)`, bench/nn.fut).
-- Argmin with ties (to the lower index), empty input, one element, lengths around the
-- groups of four and the blocks (the GPU's 1024 blocks of 256 threads x 4 elements),
-- element types of 1, 2, 4 and 8 bytes, and rows of a matrix that start off alignment
-- (read one element at a time), against references that do not use it: `reduce` with the same
-- operator (order-keeping), single-operator reductions and a sequential loop.
-- ==
-- entry: argmin_zip argmin_indexed
-- input { [3f32, 1f32, 2f32, 1f32, 5f32] } output { 1f32 1i64 }
-- input { [2f32, 2f32, 2f32, 2f32, 2f32, 2f32] } output { 2f32 0i64 }
-- input { [4f32, 3f32, 2f32, 1f32, 1f32, 2f32, 1f32, 9f32, 1f32] } output { 1f32 3i64 }
-- input { [7f32] } output { 7f32 0i64 }
-- input { empty([0]f32) } output { f32.inf -1i64 }

-- ==
-- entry: nn
-- input { [0f32, 3f32, 1f32, 1f32, 1f32] [0f32, 4f32, 1f32, 1f32, 3f32] 1f32 2f32 }
-- output { 1f32 2i64 }
-- input { empty([0]f32) empty([0]f32) 0f32 0f32 } output { f32.inf -1i64 }

-- ==
-- entry: sweep
-- input { 0i64 70i64 } output { 0i64 }
-- input { 1020i64 1030i64 } output { 0i64 }
-- input { 2045i64 2052i64 } output { 0i64 }

-- ==
-- entry: one
-- input { 100003i64 } output { 0i64 }
-- no_interp input { 1048575i64 } output { 0i64 }
-- no_interp input { 1048577i64 } output { 0i64 }
-- no_interp input { 2097151i64 } output { 0i64 }
-- no_interp input { 4194307i64 } output { 0i64 }

def argmin (a: (f32, i64)) (b: (f32, i64)) : (f32, i64) =
  if a.0 < b.0 || (a.0 == b.0 && a.1 < b.1) then a else b

-- The smallest i8, the largest i16 and how many f64 are positive, with the sum of the
-- i32s: a commutative operator on four components of four sizes.
def stats (a: (i8, i16, i64, i32)) (b: (i8, i16, i64, i32)) : (i8, i16, i64, i32) =
  (i8.min a.0 b.0, i16.max a.1 b.1, a.2 + b.2, a.3 + b.3)

entry argmin_zip [n] (ds: [n]f32) : (f32, i64) =
  reduce_comm argmin (f32.inf, -1) (zip ds (iota n))

entry argmin_indexed (ds: []f32) : (f32, i64) =
  let n = length ds
  in reduce_comm argmin (f32.inf, -1) (map (\i -> (ds[i], i)) (iota n))

entry nn [n] (lat: [n]f32) (lng: [n]f32) (tlat: f32) (tlng: f32) : (f32, i64) =
  let dist = map (\i -> f32.sqrt ((lat[i] - tlat) * (lat[i] - tlat) + (lng[i] - tlng) * (lng[i] - tlng)))
                 (iota n)
  in reduce_comm argmin (f32.inf, -1) (zip dist (iota n))

def differ (a: (f32, i64)) (b: (f32, i64)) : i64 = if a.0 == b.0 && a.1 == b.1 then 0 else 1

def differ4 (a: (i8, i16, i64, i32)) (b: (i8, i16, i64, i32)) : i64 =
  if a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && a.3 == b.3 then 0 else 1

-- How many of the reductions over n elements differ from their references.
def check (n: i64) : i64 =
  -- Distances with many ties; the lower half one larger (the minimum in the upper half).
  let ds = map (\i -> f32.i64 ((i * 13) % 7) + (if i < n / 2 then 1 else 0)) (iota n)
  let dmin = reduce f32.min f32.inf ds
  let imin = reduce i64.min n (map (\i -> if ds[i] == dmin then i else n) (iota n))
  let e = if n == 0 then (f32.inf, -1) else (dmin, imin)
  let a_zip = reduce_comm argmin (f32.inf, -1) (zip ds (iota n))
  let a_idx = reduce_comm argmin (f32.inf, -1) (map (\i -> (ds[i], i)) (iota n))
  let a_ord = reduce argmin (f32.inf, -1) (zip ds (iota n))
  -- Rows 1 and 2 of a [3][n] array start n and 2n elements in: off alignment unless n
  -- is a multiple of four (then read one element at a time).
  let g3 = unflatten 3 n (ds ++ ds ++ ds)
  let row2 = g3[2]
  let r1 = reduce_comm argmin (f32.inf, -1) (zip g3[1] (iota n))
  let r2 = reduce_comm argmin (f32.inf, -1) (map (\i -> (row2[i], i)) (iota n))
  let bs = map (\i -> i8.i64 ((i * 37) % 251 - 125)) (iota n)
  let hs = map (\i -> i16.i64 ((i * 7919) % 60001 - 30000)) (iota n)
  let fs = map (\i -> f64.i64 (i % 5) - 2.5) (iota n)
  let ws = map (\i -> i32.i64 (i % 1000) - 400) (iota n)
  let s_zip = reduce_comm stats (i8.highest, i16.lowest, 0, 0)
                          (zip4 bs hs (map (\f -> if f > 0 then 1 else 0) fs) ws)
  let s_idx = reduce_comm stats (i8.highest, i16.lowest, 0, 0)
                          (map (\i -> (bs[i], hs[i], if fs[i] > 0 then 1 else 0, ws[i])) (iota n))
  let s_ref = loop (a, b, c, d) = (i8.highest, i16.lowest, 0i64, 0i32) for i < n do
                (i8.min a bs[i], i16.max b hs[i], c + (if fs[i] > 0 then 1 else 0), d + ws[i])
  let w3 = unflatten 3 n (ws ++ ws ++ ws)
  let wsum = reduce_comm (\a b -> a + b) 0 w3[1]
  in (if wsum == s_ref.3 then 0 else 1) + differ a_zip e + differ a_idx e + differ a_ord e + differ r1 e + differ r2 e
     + differ4 s_zip s_ref + differ4 s_idx s_ref
     -- Element 0 of each, read on the host: the arrays are made, not fused.
     + (if n > 0 && (bs[0] != -125 || hs[0] != -30000 || ws[0] != -400) then 1 else 0)

entry one (n: i64) : i64 = check n

entry sweep (lo: i64) (hi: i64) : i64 = loop bad = 0i64 for n < hi - lo do bad + check (lo + n)
