-- `script input` (FutharkScript): values, or an entry point applied to values whose
-- results are the tested entry's arguments.
-- ==
-- entry: total
-- script input { squares 4i64 } output { 14i64 }
-- script input { [1i64, 2i64] } output { 3i64 }
-- script input { squares 0i64 } output { 0i64 }

-- ==
-- entry: weighted
-- script input { pair 3i64 } output { 6.0f32 }

entry squares (n: i64) : []i64 = map (\i -> i * i) (iota n)

entry total (xs: []i64) : i64 = reduce (+) 0 xs

entry pair (n: i64) : ([]f32, f32) = (map f32.i64 (iota n), 2)

entry weighted (xs: []f32) (w: f32) : f32 = w * reduce (+) 0 xs
