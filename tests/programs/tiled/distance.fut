-- Map-map-reduce with reuse that is not a sum of products, in block and register tiles
-- (codegen/tiled_kernels.cpp): the smallest distance over k (i32.min, folded in k
-- order as the sequential loop does), and a product that reads the same array twice
-- at [i, k] (one tile in shared memory). Each entry returns how many outputs differ
-- from a sequential loop over k and a weighted sum of the outputs.

def mat (n: i64) (m: i64) (s: i64) : [n][m]i32 =
  map (\i -> map (\k -> i32.i64 ((i * 7 + k * 3 + s) % 13) - 6) (iota m)) (iota n)

def weight (i: i64) (j: i64) : i32 = i32.i64 ((i * 5 + j * 11) % 17) - 8

def summary [n][p] (c: [n][p]i32) (r: [n][p]i32) : (i64, i32) =
  let ts = iota (n * p)
  let bad = i64.sum (map (\t -> i64.bool (c[t / p, t % p] != r[t / p, t % p])) ts)
  let sum = i32.sum (map (\t -> c[t / p, t % p] * weight (t / p) (t % p)) ts)
  in (bad, sum)

-- ==
-- entry: nearest
-- input { 1i64 1i64 1i64 } output { 0i64 -16i32 }
-- input { 3i64 5i64 7i64 } output { 0i64 2i32 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i32 }
-- input { 33i64 1i64 40i64 } output { 0i64 1590i32 }
-- input { 32i64 0i64 32i64 } output { 0i64 -9000i32 }
-- input { 40i64 9i64 33i64 } output { 0i64 -87i32 }
-- input { 130i64 67i64 129i64 } output { 0i64 22i32 }
entry nearest (n: i64) (m: i64) (p: i64) : (i64, i32) =
  let a = mat n m 1
  let b = mat m p 2
  let c = map (\i -> map (\j -> reduce i32.min 1000 (map (\k -> i32.abs (a[i, k] - b[k, j]) + 1) (iota m)))
                         (iota p))
              (iota n)
  let r = map (\i -> map (\j -> loop acc = 1000 for k < m do i32.min acc (i32.abs (a[i, k] - b[k, j]) + 1))
                         (iota p))
              (iota n)
  in summary c r

-- ==
-- entry: squares
-- input { 1i64 1i64 1i64 } output { 0i64 -568i32 }
-- input { 3i64 5i64 7i64 } output { 0i64 3823i32 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i32 }
-- input { 33i64 1i64 40i64 } output { 0i64 -32i32 }
-- input { 32i64 0i64 32i64 } output { 0i64 0i32 }
-- input { 40i64 9i64 33i64 } output { 0i64 -4736i32 }
-- input { 130i64 67i64 129i64 } output { 0i64 62003i32 }
entry squares (n: i64) (m: i64) (p: i64) : (i64, i32) =
  let a = mat n m 1
  let b = mat m p 2
  let c = map (\i -> map (\j -> reduce (+) 0 (map (\k -> a[i, k] * a[i, k] * 3 + b[k, j]) (iota m))) (iota p))
              (iota n)
  let r = map (\i -> map (\j -> loop acc = 0 for k < m do acc + (a[i, k] * a[i, k] * 3 + b[k, j])) (iota p))
              (iota n)
  in summary c r
