-- Statistics of sensor readings, used from C and C++ as a library: `kerb compile
-- --library scores.fut -o out/scores` (or kerb_add_library in CMake) writes scores.h
-- and libscores.a; main.c and main.cpp call these entry points through them.

-- The mean of the readings.
entry mean (xs: []f32) : f32 = reduce (+) 0 xs / f32.i64 (length xs)

-- Each reading minus the mean, scaled so that the largest deviation is 1.
entry normalise (xs: []f32) : []f32 =
  let m = reduce (+) 0 xs / f32.i64 (length xs)
  let d = reduce f32.max 0 (map (\x -> f32.abs (x - m)) xs)
  in map (\x -> (x - m) / d) xs

-- The readings at the given positions: a position out of range is caught and reported
-- with its place in this file.
entry pick (xs: []f32) (positions: []i64) : []f32 = map (\i -> xs[i]) positions

-- `rounds` rounds of smoothing: each reading becomes the mean of itself and its
-- neighbours.
entry smooth (rounds: i64) (xs: []f32) : []f32 =
  let n = length xs
  in loop ys = xs for _r < rounds do
       map (\j -> (ys[i64.max 0 (j - 1)] + ys[j] + ys[i64.min (n - 1) (j + 1)]) / 3) (iota n)

-- The range and count of the readings: a record, which C sees as an opaque value
-- (struct kerb_opaque_summary) read field by field (kerb_project_opaque_summary_hi).
type summary = {lo: f32, hi: f32, count: i64}

entry summarise (xs: []f32) : summary =
  {lo = reduce f32.min f32.inf xs, hi = reduce f32.max (-f32.inf) xs, count = length xs}
