-- Matrix products of f32 and f64 in block and register tiles (codegen/tiled_kernels.cpp)
-- with every order of index: a[i, k], at[k, i] (the left operand transposed), b[k, j]
-- and bt[j, k]; four arrays read in one product (the most a tiled map reads). The
-- values are small integers, so every sum is exact and the results do not depend on
-- the order of the additions or on fused multiply-adds. Each entry returns how many
-- outputs differ from a sequential loop over k and a weighted sum of the outputs.

def mat (n: i64) (m: i64) (s: i64) : [n][m]f32 =
  map (\i -> map (\k -> f32.i64 ((i * 7 + k * 3 + s) % 13) - 6) (iota m)) (iota n)

def weight (i: i64) (j: i64) : i64 = (i * 5 + j * 11) % 17 - 8

def summary [n][p] (c: [n][p]f32) (r: [n][p]f32) : (i64, i64) =
  let ts = iota (n * p)
  let bad = i64.sum (map (\t -> i64.bool (c[t / p, t % p] != r[t / p, t % p])) ts)
  let sum = i64.sum (map (\t -> i64.f32 c[t / p, t % p] * weight (t / p) (t % p)) ts)
  in (bad, sum)

-- ==
-- entry: transposed
-- input { 1i64 1i64 1i64 } output { 0i64 -160i64 }
-- input { 3i64 5i64 7i64 } output { 0i64 -519i64 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i64 }
-- input { 33i64 1i64 40i64 } output { 0i64 1172i64 }
-- input { 32i64 0i64 32i64 } output { 0i64 0i64 }
-- input { 40i64 9i64 33i64 } output { 0i64 3109i64 }
-- input { 130i64 67i64 129i64 } output { 0i64 57933i64 }
entry transposed (n: i64) (m: i64) (p: i64) : (i64, i64) =
  let at = mat m n 1
  let bt = mat p m 2
  let c = map (\i -> map (\j -> f32.sum (map (\k -> at[k, i] * bt[j, k]) (iota m))) (iota p)) (iota n)
  let r = map (\i -> map (\j -> loop acc = 0 for k < m do acc + at[k, i] * bt[j, k]) (iota p)) (iota n)
  in summary c r

-- ==
-- entry: mixed
-- input { 1i64 1i64 1i64 } output { 0i64 16i64 }
-- input { 3i64 5i64 7i64 } output { 0i64 -3i64 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i64 }
-- input { 33i64 1i64 40i64 } output { 0i64 3177i64 }
-- input { 32i64 0i64 32i64 } output { 0i64 0i64 }
-- input { 40i64 9i64 33i64 } output { 0i64 -3627i64 }
-- input { 130i64 67i64 129i64 } output { 0i64 3394i64 }
entry mixed (n: i64) (m: i64) (p: i64) : (i64, i64) =
  let a = mat n m 1
  let at = mat m n 3
  let b = mat m p 2
  let bt = mat p m 4
  let c = map (\i -> map (\j -> reduce (+) 0 (map (\k -> a[i, k] * bt[j, k] - at[k, i] * b[k, j]) (iota m)))
                         (iota p))
              (iota n)
  let r = map (\i -> map (\j -> loop acc = 0 for k < m do acc + (a[i, k] * bt[j, k] - at[k, i] * b[k, j]))
                         (iota p))
              (iota n)
  in summary c r

-- ==
-- entry: doubles
-- input { 1i64 1i64 1i64 } output { 0i64 -160i64 }
-- input { 3i64 5i64 7i64 } output { 0i64 222i64 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i64 }
-- input { 33i64 1i64 40i64 } output { 0i64 -5431i64 }
-- input { 32i64 0i64 32i64 } output { 0i64 0i64 }
-- input { 40i64 9i64 33i64 } output { 0i64 -1951i64 }
-- input { 130i64 67i64 129i64 } output { 0i64 -22465i64 }
entry doubles (n: i64) (m: i64) (p: i64) : (i64, i64) =
  let a = map (map f64.f32) (mat n m 1)
  let b = map (map f64.f32) (mat m p 2)
  let c = map (\i -> map (\j -> reduce (+) 0 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)
  let r = map (\i -> map (\j -> loop acc = 0 for k < m do acc + a[i, k] * b[k, j]) (iota p)) (iota n)
  in summary (map (map f32.f64) c) (map (map f32.f64) r)
