-- Histogram of f32 values into k equal-width bins over [lo, hi); values outside are
-- dropped (their bin index is out of range). Three ways: reduce_by_index, hist, and a loop.
-- ==
-- input { 4i64 0.0f32 8.0f32 [0.5f32, 1.9f32, 2.0f32, 7.99f32, 8.0f32, -0.5f32, 3.0f32, 6.5f32, 2.5f32] }
-- output { [2, 3, 0, 2] [2, 3, 0, 2] [2, 3, 0, 2] }
-- input { 2i64 0.0f32 1.0f32 empty([0]f32) }  output { [0, 0] [0, 0] [0, 0] }
def bin_of (k: i64) (lo: f32) (hi: f32) (x: f32) : i64 =
  if x < lo || x >= hi then -1
  else i64.f32 ((x - lo) / (hi - lo) * f32.i64 k)

entry main [n] (k: i64) (lo: f32) (hi: f32) (xs: [n]f32) : ([k]i32, []i32, [k]i32) =
  let is = map (bin_of k lo hi) xs
  let h1 = reduce_by_index (replicate k 0) (+) 0 is (replicate n 1)
  let h2 = hist (+) 0 k is (replicate n 1)
  let h3 = loop h = replicate k 0 for i in is do
             if i >= 0 && i < k then h with [i] = h[i] + 1 else h
  in (h1, h2, h3)
