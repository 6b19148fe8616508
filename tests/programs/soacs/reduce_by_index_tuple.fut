-- reduce_by_index on an array of tuples: per-bin sum and count, then the bin means.
-- ==
-- input { 3i64 [2i64, 0i64, 2i64, 2i64, 5i64] [1.0f32, 4.0f32, 2.0f32, 6.0f32, 100.0f32] }
-- output { [4.0f32, 0.0f32, 3.0f32] [1, 0, 3] }
entry main [n] (k: i64) (is: [n]i64) (vs: [n]f32) : ([]f32, []i32) =
  let bins = reduce_by_index (replicate k (0f32, 0i32))
                             (\(s1, c1) (s2, c2) -> (s1 + s2, c1 + c2)) (0f32, 0i32)
                             is (map (\v -> (v, 1i32)) vs)
  in (map (\(s, c) -> if c == 0 then 0 else s / f32.i32 c) bins, map (\(_, c) -> c) bins)
