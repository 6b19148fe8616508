-- Layer normalisation over the rows of a matrix (mean, variance over a map fused into
-- its reduction, scalar code between the reductions, the normalised row written in
-- place): one block per row from 64 elements, one thread per row below. A failing
-- index inside each inner operation and a division by zero in the scalar statements
-- between the reductions, in one row (the first, one in the middle, the last): the
-- interpreter's message and location.
-- ==
-- input { 5i64 300i64 -1i64 0i64 0i64 } output { [-0.92972094f32, -1.275861f32, 1.8907123f32, 1.5737563f32, -2.2156332f32] }
-- input { 5i64 10i64 -1i64 0i64 0i64 } output { [-1.2958755f32, -1.9090769f32, 0.8703798f32, 1.1078148f32, -2.954173f32] }
-- input { 0i64 100i64 -1i64 0i64 0i64 } output { empty([0]f32) }
-- input { 5i64 300i64 0i64 7i64 1i64 }
-- error: Index \[307\] out of bounds for array of shape \[300\][\s\S]*layernorm\.fut:27:42-63
-- input { 5i64 300i64 2i64 299i64 2i64 }
-- error: Index \[599\] out of bounds for array of shape \[300\][\s\S]*layernorm\.fut:29:49-70
-- input { 5i64 300i64 4i64 0i64 3i64 }
-- error: Index \[300\] out of bounds for array of shape \[300\][\s\S]*layernorm\.fut:31:18-39
-- input { 5i64 300i64 2i64 0i64 4i64 }
-- error: division by zero[\s\S]*layernorm\.fut:28:11-53
-- input { 5i64 10i64 4i64 3i64 2i64 }
-- error: Index \[13\] out of bounds for array of shape \[10\][\s\S]*layernorm\.fut:29:49-70
-- input { 5i64 64i64 0i64 63i64 3i64 }
-- error: Index \[127\] out of bounds for array of shape \[64\][\s\S]*layernorm\.fut:31:18-39
def at (i: i64) (bad: i64) (k: i64) (which: i64) (w: i64) (m: i64) (j: i64) : i64 =
  if i == bad && j == k && which == w then j + m else j

def layernorm [m] (xs: [m]f32) (i: i64) (bad: i64) (k: i64) (w: i64) : [m]f32 =
  let mean = reduce (+) 0f32 (map (\j -> xs[at i bad k w 1 m j]) (iota m)) / f32.i64 m
  let q = 1 / (if i == bad && w == 4 then 0 else 1i32)
  let var = reduce (+) 0f32 (map (\j -> let d = xs[at i bad k w 2 m j] - mean in d * d) (iota m)) / f32.i64 m
  let inv = f32.i32 q / f32.sqrt (var + 1e-5f32)
  in map (\j -> (xs[at i bad k w 3 m j] - mean) * inv) (iota m)

entry main (n: i64) (m: i64) (bad: i64) (k: i64) (w: i64) : []f32 =
  let xss = unflatten (map (\q -> f32.i64 ((q / m * 7 + q % m * 3) % 11) / 4) (iota (n * m)))
  let ys = map2 (\i xs -> layernorm xs i bad k w) (iota n) xss
  in map (\i -> ys[i, 0] + 2 * ys[i, m - 1]) (iota n)
