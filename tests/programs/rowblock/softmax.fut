-- Softmax over the rows of a matrix (a reduction, a map fused into a second reduction
-- and into the last map, which is written in place): one block per row when the rows
-- have at least 64 elements (codegen/row_block_kernels.cpp), one thread per row below.
-- A failing index inside each inner operation, in one row (the first, one in the
-- middle, the last): the interpreter's message and location.
-- ==
-- input { 5i64 300i64 -1i64 0i64 0i64 } output { [0.0039167344f32, 0.005244844f32, 0.008241744f32, 0.011121174f32, 0.0040972643f32] }
-- input { 5i64 10i64 -1i64 0i64 0i64 } output { [0.10167223f32, 0.14412883f32, 0.18803787f32, 0.3253491f32, 0.110882424f32] }
-- input { 0i64 100i64 -1i64 0i64 0i64 } output { empty([0]f32) }
-- input { 5i64 300i64 0i64 7i64 1i64 }
-- error: Index \[307\] out of bounds for array of shape \[300\][\s\S]*softmax\.fut:24:50-71
-- input { 5i64 300i64 2i64 299i64 2i64 }
-- error: Index \[599\] out of bounds for array of shape \[300\][\s\S]*softmax\.fut:25:32-53
-- input { 5i64 300i64 4i64 0i64 3i64 }
-- error: Index \[300\] out of bounds for array of shape \[300\][\s\S]*softmax\.fut:27:35-56
-- input { 5i64 10i64 4i64 3i64 2i64 }
-- error: Index \[13\] out of bounds for array of shape \[10\][\s\S]*softmax\.fut:25:32-53
-- input { 5i64 64i64 2i64 63i64 3i64 }
-- error: Index \[127\] out of bounds for array of shape \[64\][\s\S]*softmax\.fut:27:35-56
def at (i: i64) (bad: i64) (k: i64) (which: i64) (w: i64) (m: i64) (j: i64) : i64 =
  if i == bad && j == k && which == w then j + m else j

def softmax [m] (xs: [m]f32) (i: i64) (bad: i64) (k: i64) (w: i64) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) (map (\j -> xs[at i bad k w 1 m j]) (iota m))
  let es = map (\j -> f32.exp (xs[at i bad k w 2 m j] - mx)) (iota m)
  let s = reduce (+) 0f32 es
  in map2 (\e j -> e / s + 0f32 * xs[at i bad k w 3 m j]) es (iota m)

entry main (n: i64) (m: i64) (bad: i64) (k: i64) (w: i64) : []f32 =
  let xss = unflatten (map (\q -> f32.i64 ((q / m * 7 + q % m * 3) % 11) / 4) (iota (n * m)))
  let sm = map2 (\i xs -> softmax xs i bad k w) (iota n) xss
  in map (\i -> sm[i, 0] + sm[i, m - 1]) (iota n)
