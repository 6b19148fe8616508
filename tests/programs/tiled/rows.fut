-- Matrix products written over rows, as Futhark programmers write them: `map (\r -> map
-- (\c -> reduce op ne (map2 f r c)) cs) rs`, where r is row i of rs and c row j of cs
-- (`transpose b`: column j of b), in block and register tiles (codegen/tiled_kernels.cpp;
-- one thread per row before): the product with b, squared distances between the rows
-- of two arrays (f32, integer values: exact), and a times its own transpose (one array
-- read on both sides). Each entry returns how many outputs differ from a sequential loop
-- over k and a weighted sum of the outputs.

def mat (n: i64) (m: i64) (s: i64) : [n][m]i32 =
  map (\i -> map (\k -> i32.i64 ((i * 7 + k * 3 + s) % 13) - 6) (iota m)) (iota n)

def weight (i: i64) (j: i64) : i32 = i32.i64 ((i * 5 + j * 11) % 17) - 8

def summary [n][p] (c: [n][p]i32) (r: [n][p]i32) : (i64, i32) =
  let ts = iota (n * p)
  let bad = i64.sum (map (\t -> i64.bool (c[t / p, t % p] != r[t / p, t % p])) ts)
  let sum = i32.sum (map (\t -> c[t / p, t % p] * weight (t / p) (t % p)) ts)
  in (bad, sum)

def summary_f32 [n][p] (c: [n][p]f32) (r: [n][p]f32) : (i64, i32) =
  let ts = iota (n * p)
  let bad = i64.sum (map (\t -> i64.bool (c[t / p, t % p] != r[t / p, t % p])) ts)
  let sum = i32.sum (map (\t -> i32.f32 c[t / p, t % p] * weight (t / p) (t % p)) ts)
  in (bad, sum)

-- ==
-- entry: idiomatic
-- input { 1i64 1i64 1i64 } output { 0i64 -160i32 }
-- input { 3i64 5i64 7i64 } output { 0i64 222i32 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i32 }
-- input { 33i64 1i64 40i64 } output { 0i64 -5431i32 }
-- input { 32i64 0i64 32i64 } output { 0i64 0i32 }
-- input { 40i64 9i64 33i64 } output { 0i64 -1951i32 }
-- input { 130i64 67i64 129i64 } output { 0i64 -22465i32 }
entry idiomatic (n: i64) (m: i64) (p: i64) : (i64, i32) =
  let a = mat n m 1
  let b = mat m p 2
  let c = map (\r -> map (\col -> i32.sum (map2 (*) r col)) (transpose b)) a
  let l = map (\i -> map (\j -> loop acc = 0 for k < m do acc + a[i, k] * b[k, j]) (iota p)) (iota n)
  in summary c l

-- ==
-- entry: distances
-- input { 1i64 1i64 1i64 } output { 0i64 -32i32 }
-- input { 3i64 5i64 7i64 } output { 0i64 3994i32 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i32 }
-- input { 33i64 1i64 40i64 } output { 0i64 -3371i32 }
-- input { 32i64 0i64 32i64 } output { 0i64 0i32 }
-- input { 40i64 9i64 33i64 } output { 0i64 -12968i32 }
-- input { 130i64 67i64 129i64 } output { 0i64 74363i32 }
entry distances (n: i64) (m: i64) (p: i64) : (i64, i32) =
  let a = map (map f32.i32) (mat n m 1)
  let c = map (map f32.i32) (mat p m 3)
  let d = map (\x -> map (\y -> f32.sum (map2 (\u v -> (u - v) * (u - v)) x y)) c) a
  let l = map (\i -> map (\j -> loop acc = 0 for k < m do acc + (a[i, k] - c[j, k]) * (a[i, k] - c[j, k]))
                         (iota p))
              (iota n)
  in summary_f32 d l

-- ==
-- entry: self
-- input { 1i64 1i64 1i64 } output { 0i64 -200i32 }
-- input { 3i64 5i64 7i64 } output { 0i64 315i32 }
-- input { 0i64 5i64 7i64 } output { 0i64 0i32 }
-- input { 33i64 1i64 40i64 } output { 0i64 1173i32 }
-- input { 32i64 0i64 32i64 } output { 0i64 0i32 }
-- input { 40i64 9i64 33i64 } output { 0i64 2145i32 }
-- input { 130i64 67i64 129i64 } output { 0i64 -11169i32 }
entry self (n: i64) (m: i64) (_p: i64) : (i64, i32) =
  let a = mat n m 1
  let c = map (\r -> map (\s -> i32.sum (map2 (*) r s)) a) a
  let l = map (\i -> map (\j -> loop acc = 0 for k < m do acc + a[i, k] * a[j, k]) (iota n)) (iota n)
  in summary c l
