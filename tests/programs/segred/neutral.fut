-- A segmented reduction whose neutral elements are computed in the map's lambda (an
-- f32.inf negated; one from the segment's index), on a pair: max and sum. Empty
-- segments give the neutral elements.
-- ==
-- input { 1i64 60000i64 } output { [999.0f32] [29970000i64] }
-- input { 3i64 40000i64 } output { [999.0f32, 999.0f32, 999.0f32] [19980000i64, 19980001i64, 19980002i64] }
-- input { 16i64 3000i64 } output { [999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32, 999.0f32] [1498500i64, 1498501i64, 1498502i64, 1498503i64, 1498504i64, 1498505i64, 1498506i64, 1498507i64, 1498508i64, 1498509i64, 1498510i64, 1498511i64, 1498512i64, 1498513i64, 1498514i64, 1498515i64] }
-- input { 0i64 7i64 } output { empty([0]f32) empty([0]i64) }
-- input { 2i64 0i64 } output { [-1.0f32, -1.0f32] [0i64, 1i64] }
entry main (n: i64) (m: i64) : ([]f32, []i64) =
  map (\j -> let (mx, sm) = reduce (\(a, b) (c, d) -> (f32.max a c, b + d)) (-f32.inf, j - j)
                                  (map (\i -> (f32.i64 ((i * 7919 + j * 13) % 1000), (i * 7919 + j * 13) % 1000)) (iota m))
             in (if mx == -f32.inf then -1f32 else mx, sm + j))
      (iota n)
  |> unzip
