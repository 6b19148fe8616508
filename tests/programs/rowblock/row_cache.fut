-- The versions of one block per row by the rows' sizes: a warp per row up to 1024
-- elements and from 2048 rows (Note [A warp per row] in codegen/row_block_kernels.cpp),
-- a block per row with the rows in shared memory up to 4096 (Note [Rows in shared
-- memory] in codegen/row_cache.cpp), a block per row reading global memory past that,
-- one thread per row below 64 elements. A softmax whose row three inner operations read
-- (through gathers), of f32 rows at each bound and one past it (main; many: from 2048
-- rows, no_interp: the interpreter takes seconds); two rows cached, of 8-byte elements,
-- so at most 256 (a warp) and 2048 (a block) each (pair); two rows of different
-- lengths, each tested by the guards (uneven); prefix sums, whose row is read once and
-- not copied (scans). A failing index inside an inner map and inside a reduction's or
-- scan's fused map, in a middle row, in each version: the interpreter's message and
-- location.
-- ==
-- entry: main
-- input { 5i64 1024i64 -1i64 0i64 0i64 } output { [0.0040170294f32, 0.003720651f32, 0.008502072f32, 0.0078660855f32, 0.002898415f32] }
-- input { 5i64 1025i64 -1i64 0i64 0i64 } output { [0.0042480794f32, 0.005046906f32, 0.008986662f32, 0.005672671f32, 0.003933778f32] }
-- input { 5i64 1024i64 2i64 1023i64 1i64 }
-- error: Index \[2047\] out of bounds for array of shape \[1024\][\s\S]*row_cache\.fut:105:50-71
-- input { 5i64 1024i64 2i64 0i64 3i64 }
-- error: Index \[1024\] out of bounds for array of shape \[1024\][\s\S]*row_cache\.fut:108:35-56
-- input { 5i64 1025i64 2i64 5i64 2i64 }
-- error: Index \[1030\] out of bounds for array of shape \[1025\][\s\S]*row_cache\.fut:106:32-53
-- input { 5i64 4096i64 -1i64 0i64 0i64 } output { [0.0012468043f32, 0.00073906995f32, 0.0016599759f32, 0.0015644778f32, 0.00057574135f32] }
-- input { 5i64 4097i64 -1i64 0i64 0i64 } output { [0.00081936864f32, 0.00094175164f32, 0.0017344481f32, 0.0012317013f32, 0.00073369435f32] }
-- input { 5i64 100i64 -1i64 0i64 0i64 } output { [0.04142883f32, 0.038021456f32, 0.08749466f32, 0.07940486f32, 0.0296916f32] }
-- input { 5i64 10i64 -1i64 0i64 0i64 } output { [0.28631768f32, 0.20555934f32, 0.52953064f32, 0.46401918f32, 0.850157f32] }
-- input { 0i64 100i64 -1i64 0i64 0i64 } output { empty([0]f32) }
-- input { 5i64 4096i64 2i64 4095i64 1i64 }
-- error: Index \[8191\] out of bounds for array of shape \[4096\][\s\S]*row_cache\.fut:105:50-71
-- input { 5i64 4096i64 2i64 17i64 2i64 }
-- error: Index \[4113\] out of bounds for array of shape \[4096\][\s\S]*row_cache\.fut:106:32-53
-- input { 5i64 4096i64 2i64 0i64 3i64 }
-- error: Index \[4096\] out of bounds for array of shape \[4096\][\s\S]*row_cache\.fut:108:35-56
-- input { 5i64 4097i64 2i64 4096i64 1i64 }
-- error: Index \[8193\] out of bounds for array of shape \[4097\][\s\S]*row_cache\.fut:105:50-71
-- input { 5i64 4097i64 2i64 9i64 3i64 }
-- error: Index \[4106\] out of bounds for array of shape \[4097\][\s\S]*row_cache\.fut:108:35-56
-- input { 5i64 100i64 2i64 99i64 3i64 }
-- error: Index \[199\] out of bounds for array of shape \[100\][\s\S]*row_cache\.fut:108:35-56
-- input { 5i64 64i64 2i64 63i64 2i64 }
-- error: Index \[127\] out of bounds for array of shape \[64\][\s\S]*row_cache\.fut:106:32-53
-- ==
-- entry: pair
-- input { 3i64 256i64 -1i64 0i64 0i64 } output { [-18.615384615384617f64, -25.75f64, -36.117647058823536f64] }
-- input { 3i64 257i64 -1i64 0i64 0i64 } output { [-15.7f64, -23.5625f64, -44.67272727272727f64] }
-- input { 5i64 256i64 2i64 255i64 1i64 }
-- error: Index \[511\] out of bounds for array of shape \[256\][\s\S]*row_cache\.fut:115:47-68
-- input { 5i64 257i64 2i64 3i64 2i64 }
-- error: Index \[260\] out of bounds for array of shape \[257\][\s\S]*row_cache\.fut:116:66-87
-- input { 3i64 2048i64 -1i64 0i64 0i64 } output { [-40.53333333333333f64, -6.333333333333334f64, -27.45f64] }
-- input { 3i64 2049i64 -1i64 0i64 0i64 } output { [-35.800000000000004f64, -15.434782608695652f64, -24.444444444444446f64] }
-- input { 3i64 64i64 -1i64 0i64 0i64 } output { [-28.8125f64, -25.09090909090909f64, -46.49999999999999f64] }
-- input { 3i64 10i64 -1i64 0i64 0i64 } output { [-36.38461538461539f64, -40.91304347826087f64, -16.783783783783782f64] }
-- input { 5i64 2048i64 2i64 2047i64 1i64 }
-- error: Index \[4095\] out of bounds for array of shape \[2048\][\s\S]*row_cache\.fut:115:47-68
-- input { 5i64 2048i64 2i64 5i64 2i64 }
-- error: Index \[2053\] out of bounds for array of shape \[2048\][\s\S]*row_cache\.fut:116:66-87
-- input { 5i64 2049i64 2i64 0i64 1i64 }
-- error: Index \[2049\] out of bounds for array of shape \[2049\][\s\S]*row_cache\.fut:115:47-68
-- input { 5i64 2049i64 2i64 2048i64 2i64 }
-- error: Index \[4097\] out of bounds for array of shape \[2049\][\s\S]*row_cache\.fut:116:66-87
-- ==
-- entry: many
-- no_interp input { 2048i64 1024i64 -1i64 0i64 0i64 } output { 0.00041705457f32 0.0441015f32 1.9993044f32 }
-- no_interp input { 2047i64 1024i64 -1i64 0i64 0i64 } output { 0.00041705457f32 0.11999917f32 1.9981056f32 }
-- no_interp input { 2048i64 1025i64 -1i64 0i64 0i64 } output { 0.0006496928f32 0.04398986f32 1.9984457f32 }
-- no_interp input { 2048i64 100i64 -1i64 0i64 0i64 } output { 0.004301209f32 0.45067468f32 20.481989f32 }
-- no_interp input { 2048i64 1024i64 1024i64 1023i64 1i64 }
-- error: Index \[2047\] out of bounds for array of shape \[1024\][\s\S]*row_cache\.fut:105:50-71
-- no_interp input { 2048i64 1024i64 1024i64 0i64 3i64 }
-- error: Index \[1024\] out of bounds for array of shape \[1024\][\s\S]*row_cache\.fut:108:35-56
-- no_interp input { 2048i64 64i64 2047i64 63i64 2i64 }
-- error: Index \[127\] out of bounds for array of shape \[64\][\s\S]*row_cache\.fut:106:32-53
-- no_interp input { 2047i64 1024i64 1000i64 3i64 2i64 }
-- error: Index \[1027\] out of bounds for array of shape \[1024\][\s\S]*row_cache\.fut:106:32-53
-- ==
-- entry: scans
-- no_interp input { 2048i64 1024i64 -1i64 0i64 } output { -5i64 0i64 -3i64 }
-- no_interp input { 2048i64 300i64 -1i64 0i64 } output { -6i64 1i64 1i64 }
-- no_interp input { 2047i64 300i64 -1i64 0i64 } output { -6i64 0i64 -4i64 }
-- no_interp input { 2048i64 300i64 1000i64 299i64 }
-- error: Index \[599\] out of bounds for array of shape \[300\][\s\S]*row_cache\.fut:139:50-71
-- no_interp input { 2048i64 1024i64 5i64 0i64 }
-- error: Index \[1024\] out of bounds for array of shape \[1024\][\s\S]*row_cache\.fut:139:50-71
-- no_interp input { 2047i64 300i64 1000i64 7i64 }
-- error: Index \[307\] out of bounds for array of shape \[300\][\s\S]*row_cache\.fut:139:50-71
-- ==
-- entry: uneven
-- input { 3i64 100i64 1024i64 } output { [0.0039100684f32, 439.2539f32, 186.7539f32] }
-- input { 3i64 100i64 1025i64 } output { [0.0039077764f32, 439.2539f32, 186.7539f32] }
-- input { 3i64 1025i64 100i64 } output { [959.6654f32, 5452.79f32, 2882.29f32] }
-- input { 3i64 1024i64 1024i64 } output { [0.0039100684f32, 4481.754f32, 1919.2539f32] }
-- input { 3i64 100i64 4096i64 } output { [0.0009766578f32, 439.25098f32, 186.75098f32] }
-- input { 3i64 100i64 4097i64 } output { [0.0009766102f32, 439.25098f32, 186.75098f32] }
-- input { 3i64 4097i64 100i64 } output { [1279.9778f32, 19211.29f32, 8961.353f32] }
-- input { 3i64 4096i64 4096i64 } output { [11518.877f32, 15363.0f32, 5119.751f32] }
-- input { 3i64 10i64 100i64 } output { [14.727903f32, 25.53984f32, 37.85266f32] }
def at (i: i64) (bad: i64) (k: i64) (which: i64) (w: i64) (m: i64) (j: i64) : i64 =
  if i == bad && j == k && which == w then j + m else j

def data (n: i64) (m: i64) : [n][m]f32 =
  unflatten (map (\q -> f32.i64 ((q / m * 7 + q % m * 3) % 11) / 4) (iota (n * m)))

def softmax [m] (xs: [m]f32) (i: i64) (bad: i64) (k: i64) (w: i64) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) (map (\j -> xs[at i bad k w 1 m j]) (iota m))
  let es = map (\j -> f32.exp (xs[at i bad k w 2 m j] - mx)) (iota m)
  let s = reduce (+) 0f32 es
  in map2 (\e j -> e / s + 0f32 * xs[at i bad k w 3 m j]) es (iota m)

entry main (n: i64) (m: i64) (bad: i64) (k: i64) (w: i64) : []f32 =
  let sm = map2 (\i xs -> softmax xs i bad k w) (iota n) (data n m)
  in map (\i -> sm[i, 0] + sm[i, m - 1] + 3 * sm[i, m / 2]) (iota n)

def pair_row [m] (xs: [m]i64) (ys: [m]f64) (i: i64) (bad: i64) (k: i64) (w: i64) : [m]f64 =
  let s = reduce (+) 0f64 (map (\j -> f64.i64 xs[at i bad k w 1 m j] * ys[j]) (iota m))
  let mx = reduce i64.max i64.lowest (map (\j -> xs[j] + i64.f64 ys[at i bad k w 2 m j]) (iota m))
  in map (\j -> f64.i64 (xs[j] - mx) + ys[j] / (f64.abs s + 1)) (iota m)

entry pair (n: i64) (m: i64) (bad: i64) (k: i64) (w: i64) : []f64 =
  let xss = unflatten (map (\q -> (q / m * 7 + q % m * 3) % 11 - 5) (iota (n * m)))
  let yss = unflatten (map (\q -> f64.i64 ((q * 5 + q / m) % 13) / 8) (iota (n * m)))
  let r = map3 (\i xs ys -> pair_row xs ys i bad k w) (iota n) xss yss
  in map (\i -> r[i, 0] + r[i, m - 1] + 3 * r[i, m / 2]) (iota n)

entry uneven (n: i64) (m: i64) (k: i64) : []f32 =
  let r = map2 (\xs ys -> let a = reduce (+) 0 xs
                          let b = reduce f32.max (-f32.inf) ys
                          let c = reduce (+) 0 ys
                          in map (\x -> x * a + b / c) xs)
               (data n m) (data n k)
  in map (\i -> r[i, 0] + r[i, m - 1]) (iota n)

entry many (n: i64) (m: i64) (bad: i64) (k: i64) (w: i64) : (f32, f32, f32) =
  let sm = map2 (\i xs -> softmax xs i bad k w) (iota n) (data n m)
  in (sm[0, 0] + sm[0, m - 1], sm[n / 2, m / 2] * 100, reduce (+) 0 (map (\i -> sm[i, i % m]) (iota n)))

entry scans (n: i64) (m: i64) (bad: i64) (k: i64) : (i64, i64, i64) =
  let xss = unflatten (map (\q -> (q / m * 7 + q % m * 3) % 11 - 5) (iota (n * m)))
  let ps = map2 (\i xs -> scan (+) 0 (map (\j -> xs[at i bad k 1 1 m j]) (iota m))) (iota n) xss
  in (ps[0, m - 1], ps[n / 2, m / 2], reduce (+) 0 (map (\i -> ps[i, m - 1 - i % m]) (iota n)))
