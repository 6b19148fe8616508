-- Matrix products of i32 (exact) in block and register tiles (Strategy::BlockTiled,
-- codegen/tiled_kernels.cpp) when the output has at least 32 rows and columns, else in
-- the map's other versions: sizes that are not multiples of the tiles (the CPU
-- device's tiles are 32 x 32 outputs, the GPU's 128 x 128, k-tiles of 8), one k, no k,
-- empty outputs; nested maps, a map over iota (n * p) split by p, and a scalar of the
-- host in the product. Each entry returns how many outputs differ from a sequential
-- loop over k (never tiled) and a weighted sum of the outputs.
-- ==
-- entry: nested flat
-- input { 1i64 1i64 1i64 } output { 0i64 -160i32 }
-- input { 3i64 5i64 7i64 } output { 0i64 222i32 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i32 }
-- input { 4i64 6i64 0i64 } output { 0i64 0i32 }
-- input { 33i64 1i64 40i64 } output { 0i64 -5431i32 }
-- input { 32i64 0i64 32i64 } output { 0i64 0i32 }
-- input { 40i64 9i64 33i64 } output { 0i64 -1951i32 }
-- input { 130i64 67i64 129i64 } output { 0i64 -22465i32 }

def mat (n: i64) (m: i64) (s: i64) : [n][m]i32 =
  map (\i -> map (\k -> i32.i64 ((i * 7 + k * 3 + s) % 13) - 6) (iota m)) (iota n)

def weight (i: i64) (j: i64) : i32 = i32.i64 ((i * 5 + j * 11) % 17) - 8

-- Outputs that differ from r, and the weighted sum of c (read by index: c is stored).
def summary [n][p] (c: [n][p]i32) (r: [n][p]i32) : (i64, i32) =
  let ts = iota (n * p)
  let bad = i64.sum (map (\t -> i64.bool (c[t / p, t % p] != r[t / p, t % p])) ts)
  let sum = i32.sum (map (\t -> c[t / p, t % p] * weight (t / p) (t % p)) ts)
  in (bad, sum)

def by_loop [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\i -> map (\j -> loop acc = 0 for k < m do acc + a[i, k] * b[k, j]) (iota p)) (iota n)

entry nested (n: i64) (m: i64) (p: i64) : (i64, i32) =
  let a = mat n m 1
  let b = mat m p 2
  let c = map (\i -> map (\j -> reduce (+) 0 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)
  in summary c (by_loop a b)

-- (The sizes known not to be negative: range analysis then proves t / p < n, and the
-- indices' checks are removed, as they must be for the tiled version.)
entry flat (n: i64) (m: i64) (p: i64) : (i64, i32) =
  let n = i64.max 0 n
  let p = i64.max 0 p
  let a = mat n m 1
  let b = mat m p 2
  let c = unflatten n p (map (\t -> let i = t / p
                                    let j = t % p
                                    in reduce (+) 0 (map (\k -> a[i, k] * b[k, j]) (iota m)))
                             (iota (n * p)))
  in summary c (by_loop a b)

-- A scalar of the host inside the product (3 * the product).
-- ==
-- entry: scaled
-- input { 40i64 9i64 33i64 3i32 } output { 0i64 -5853i32 }
-- input { 130i64 67i64 129i64 3i32 } output { 0i64 -67395i32 }
entry scaled (n: i64) (m: i64) (p: i64) (s: i32) : (i64, i32) =
  let a = mat n m 1
  let b = mat m p 2
  let c = map (\i -> map (\j -> reduce (+) 0 (map (\k -> a[i, k] * s * b[k, j]) (iota m))) (iota p)) (iota n)
  in summary c (map (map (* s)) (by_loop a b))

-- A near miss: b's index j + d may be out of bounds (its check is kept), so the map
-- keeps its other versions, whose check reports the first failing index.
-- ==
-- entry: shifted
-- input { 40i64 9i64 33i64 0i64 } output { 0i64 -1951i32 }
-- input { 40i64 9i64 33i64 1i64 }
-- error: Index \[0, 33\] out of bounds for array of shape \[9\]\[33\][\s\S]*matmul_i32\.fut:74:68-78
entry shifted (n: i64) (m: i64) (p: i64) (d: i64) : (i64, i32) =
  let a = mat n m 1
  let b = mat m p 2
  let c = map (\i -> map (\j -> reduce (+) 0 (map (\k -> a[i, k] * b[k, j + d]) (iota m))) (iota p)) (iota n)
  in summary c (by_loop a b)

-- An assert of a host value in the inner lambda: made at the start of the tiled kernel
-- (every thread alike), the failure reported as the interpreter reports it.
-- ==
-- entry: asserted
-- input { 40i64 9i64 33i64 3i32 } output { 0i64 -5853i32 }
-- input { 40i64 9i64 33i64 0i32 }
-- error: Assertion is false: s != 0[\s\S]*matmul_i32\.fut:87:33-107
entry asserted (n: i64) (m: i64) (p: i64) (s: i32) : (i64, i32) =
  let a = mat n m 1
  let b = mat m p 2
  let c = map (\i -> map (\j -> assert (s != 0) (reduce (+) 0 (map (\k -> a[i, k] * s * b[k, j]) (iota m))))
                         (iota p))
              (iota n)
  in summary c (map (map (* s)) (by_loop a b))
