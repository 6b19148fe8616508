-- k-means: one assignment step (nearest centroid by squared distance, ties to the lower
-- index) followed by the centroid update with reduce_by_index (empty clusters keep their centroid).
-- ==
-- input { [0.0f32, 1.0f32, 9.0f32, 10.0f32, 0.0f32] [0.0f32, 1.0f32, 9.0f32, 10.0f32, 2.0f32]
--         [0.0f32, 8.0f32, 100.0f32] [0.0f32, 8.0f32, 100.0f32] }
-- output { [0i64, 0i64, 1i64, 1i64, 0i64] [0.33333334f32, 9.5f32, 100.0f32] [1.0f32, 9.5f32, 100.0f32] }
def dist2 (ax: f32, ay: f32) (bx: f32, by: f32) : f32 =
  (ax - bx) * (ax - bx) + (ay - by) * (ay - by)

def closest [k] (cs: [k](f32, f32)) (p: (f32, f32)) : i64 =
  let (_, best) =
    reduce (\(d1, i1) (d2, i2) -> if d2 < d1 || (d2 == d1 && i2 < i1) then (d2, i2) else (d1, i1))
           (f32.inf, -1)
           (map2 (\c i -> (dist2 p c, i)) cs (iota k))
  in best

entry main [n][k] (px: [n]f32) (py: [n]f32) (cx: [k]f32) (cy: [k]f32) : ([n]i64, [k]f32, [k]f32) =
  let cs = zip cx cy
  let assign = map (closest cs) (zip px py)
  let sums = reduce_by_index (replicate k (0f32, 0f32, 0i32))
                             (\(a, b, c) (x, y, z) -> (a + x, b + y, c + z)) (0f32, 0f32, 0i32)
                             assign (map2 (\x y -> (x, y, 1i32)) px py)
  let (nx, ny) = unzip (map2 (\(sx, sy, c) (ox, oy) ->
                                if c == 0 then (ox, oy) else (sx / f32.i32 c, sy / f32.i32 c))
                             sums cs)
  in (assign, nx, ny)
