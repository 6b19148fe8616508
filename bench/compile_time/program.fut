-- A program of about 500 lines for timing the compiler (bench/compile_time/README.md):
-- written by gen_program.py; do not edit.

def apply_n 'a (n: i64) (f: a -> a) (x: a) : a = loop x for _i < n do f x

type stats = {mean: f32, var: f32}
-- Block 0.
def scale_0 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 0.5f32) xs
def stats_0 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_0 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_0 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_0 [n] (xs: [n]f32) : [n]f32 = apply_n 1 stencil_0 xs
entry main_0 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_0 (scale_0 a xs)
  let st = stats_0 ys
  let h = hist_0 is 8
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 8]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 1.
def scale_1 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 1.5f32) xs
def stats_1 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_1 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_1 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_1 [n] (xs: [n]f32) : [n]f32 = apply_n 2 stencil_1 xs
entry main_1 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_1 (scale_1 a xs)
  let st = stats_1 ys
  let h = hist_1 is 9
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 9]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 2.
def scale_2 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 2.5f32) xs
def stats_2 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_2 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_2 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_2 [n] (xs: [n]f32) : [n]f32 = apply_n 3 stencil_2 xs
entry main_2 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_2 (scale_2 a xs)
  let st = stats_2 ys
  let h = hist_2 is 10
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 10]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 3.
def scale_3 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 3.5f32) xs
def stats_3 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_3 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_3 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_3 [n] (xs: [n]f32) : [n]f32 = apply_n 4 stencil_3 xs
entry main_3 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_3 (scale_3 a xs)
  let st = stats_3 ys
  let h = hist_3 is 11
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 11]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 4.
def scale_4 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 4.5f32) xs
def stats_4 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_4 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_4 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_4 [n] (xs: [n]f32) : [n]f32 = apply_n 1 stencil_4 xs
entry main_4 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_4 (scale_4 a xs)
  let st = stats_4 ys
  let h = hist_4 is 12
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 12]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 5.
def scale_5 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 5.5f32) xs
def stats_5 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_5 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_5 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_5 [n] (xs: [n]f32) : [n]f32 = apply_n 2 stencil_5 xs
entry main_5 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_5 (scale_5 a xs)
  let st = stats_5 ys
  let h = hist_5 is 13
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 13]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 6.
def scale_6 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 6.5f32) xs
def stats_6 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_6 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_6 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_6 [n] (xs: [n]f32) : [n]f32 = apply_n 3 stencil_6 xs
entry main_6 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_6 (scale_6 a xs)
  let st = stats_6 ys
  let h = hist_6 is 14
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 14]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 7.
def scale_7 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 7.5f32) xs
def stats_7 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_7 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_7 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_7 [n] (xs: [n]f32) : [n]f32 = apply_n 4 stencil_7 xs
entry main_7 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_7 (scale_7 a xs)
  let st = stats_7 ys
  let h = hist_7 is 15
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 15]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 8.
def scale_8 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 8.5f32) xs
def stats_8 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_8 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_8 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_8 [n] (xs: [n]f32) : [n]f32 = apply_n 1 stencil_8 xs
entry main_8 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_8 (scale_8 a xs)
  let st = stats_8 ys
  let h = hist_8 is 16
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 16]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 9.
def scale_9 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 9.5f32) xs
def stats_9 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_9 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_9 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_9 [n] (xs: [n]f32) : [n]f32 = apply_n 2 stencil_9 xs
entry main_9 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_9 (scale_9 a xs)
  let st = stats_9 ys
  let h = hist_9 is 17
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 17]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 10.
def scale_10 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 10.5f32) xs
def stats_10 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_10 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_10 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_10 [n] (xs: [n]f32) : [n]f32 = apply_n 3 stencil_10 xs
entry main_10 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_10 (scale_10 a xs)
  let st = stats_10 ys
  let h = hist_10 is 18
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 18]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 11.
def scale_11 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 11.5f32) xs
def stats_11 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_11 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_11 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_11 [n] (xs: [n]f32) : [n]f32 = apply_n 4 stencil_11 xs
entry main_11 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_11 (scale_11 a xs)
  let st = stats_11 ys
  let h = hist_11 is 19
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 19]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 12.
def scale_12 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 12.5f32) xs
def stats_12 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_12 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_12 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_12 [n] (xs: [n]f32) : [n]f32 = apply_n 1 stencil_12 xs
entry main_12 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_12 (scale_12 a xs)
  let st = stats_12 ys
  let h = hist_12 is 20
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 20]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 13.
def scale_13 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 13.5f32) xs
def stats_13 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_13 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_13 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_13 [n] (xs: [n]f32) : [n]f32 = apply_n 2 stencil_13 xs
entry main_13 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_13 (scale_13 a xs)
  let st = stats_13 ys
  let h = hist_13 is 21
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 21]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 14.
def scale_14 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 14.5f32) xs
def stats_14 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_14 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_14 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_14 [n] (xs: [n]f32) : [n]f32 = apply_n 3 stencil_14 xs
entry main_14 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_14 (scale_14 a xs)
  let st = stats_14 ys
  let h = hist_14 is 22
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 22]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 15.
def scale_15 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 15.5f32) xs
def stats_15 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_15 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_15 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_15 [n] (xs: [n]f32) : [n]f32 = apply_n 4 stencil_15 xs
entry main_15 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_15 (scale_15 a xs)
  let st = stats_15 ys
  let h = hist_15 is 23
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 23]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 16.
def scale_16 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 16.5f32) xs
def stats_16 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_16 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_16 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_16 [n] (xs: [n]f32) : [n]f32 = apply_n 1 stencil_16 xs
entry main_16 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_16 (scale_16 a xs)
  let st = stats_16 ys
  let h = hist_16 is 24
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 24]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 17.
def scale_17 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 17.5f32) xs
def stats_17 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_17 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_17 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_17 [n] (xs: [n]f32) : [n]f32 = apply_n 2 stencil_17 xs
entry main_17 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_17 (scale_17 a xs)
  let st = stats_17 ys
  let h = hist_17 is 25
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 25]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 18.
def scale_18 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 18.5f32) xs
def stats_18 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_18 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_18 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_18 [n] (xs: [n]f32) : [n]f32 = apply_n 3 stencil_18 xs
entry main_18 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_18 (scale_18 a xs)
  let st = stats_18 ys
  let h = hist_18 is 26
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 26]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 19.
def scale_19 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 19.5f32) xs
def stats_19 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_19 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_19 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_19 [n] (xs: [n]f32) : [n]f32 = apply_n 4 stencil_19 xs
entry main_19 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_19 (scale_19 a xs)
  let st = stats_19 ys
  let h = hist_19 is 27
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 27]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 20.
def scale_20 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 20.5f32) xs
def stats_20 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_20 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_20 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_20 [n] (xs: [n]f32) : [n]f32 = apply_n 1 stencil_20 xs
entry main_20 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_20 (scale_20 a xs)
  let st = stats_20 ys
  let h = hist_20 is 28
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 28]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 21.
def scale_21 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 21.5f32) xs
def stats_21 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_21 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_21 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_21 [n] (xs: [n]f32) : [n]f32 = apply_n 2 stencil_21 xs
entry main_21 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_21 (scale_21 a xs)
  let st = stats_21 ys
  let h = hist_21 is 29
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 29]) ys (indices ys))
  in (st.mean, st.var, h, top)

-- Block 22.
def scale_22 (a: f32) (xs: []f32) : []f32 = map (\x -> a * x + 22.5f32) xs
def stats_22 [n] (xs: [n]f32) : stats =
  let s = reduce (+) 0 xs
  let m = s / f32.i64 (i64.max 1 n)
  let v = reduce (+) 0 (map (\x -> (x - m) * (x - m)) xs)
  in {mean = m, var = v}
def hist_22 [n] (is: [n]i64) (m: i64) : [m]i32 =
  reduce_by_index (replicate m 0) (+) 0 (map (\i -> i64.abs i % m) is) (replicate n 1)
def stencil_22 [n] (xs: [n]f32) : [n]f32 =
  map (\i -> let l = if i > 0 then xs[i - 1] else 0
             let r = if i < n - 1 then xs[i + 1] else 0
             in (l + xs[i] + r) / 3)
      (iota n)
def smooth_22 [n] (xs: [n]f32) : [n]f32 = apply_n 3 stencil_22 xs
entry main_22 (a: f32) (xs: []f32) (is: []i64) : (f32, f32, []i32, f32) =
  let ys = smooth_22 (scale_22 a xs)
  let st = stats_22 ys
  let h = hist_22 is 30
  let top = reduce f32.max (-f32.inf) (map2 (\y j -> y * f32.i32 h[j % 30]) ys (indices ys))
  in (st.mean, st.var, h, top)
