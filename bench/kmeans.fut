-- Rodinia's k-means, ported with explicit indexing: `iters` rounds of assigning each
-- point to its nearest centre (a loop over centres and features per point) and moving
-- each centre to the mean of its points (reduce_by_index of counts and of coordinate
-- sums); the first k points are the initial centres, and a centre with no points
-- stays where it is. 2^17 points of 16 features, 8 centres, 10 rounds. (The centres
-- start as a map over the first k rows, not `take k points`: the code generator does
-- not yet see that a loop over `take k points` keeps its size.)
-- ==
-- nobench input { 2i64 1 [[0f32, 0f32], [10f32, 10f32], [1f32, 0f32], [9f32, 10f32]] }
--         output { [[0.5f32, 0f32], [9.5f32, 10f32]] }
-- nobench input { 2i64 3 [[0f32], [4f32], [1f32], [5f32], [6f32]] }
--         output { [[0.5f32], [5f32]] }
-- "2^17 points, 16 features, 8 centres, 10 rounds" no_interp no_cpu input @ data/kmeans.in output @ data/kmeans.out
entry main [n][d] (k: i64) (iters: i32) (points: [n][d]f32) : [k][d]f32 =
  let first = map (\c -> map (\f -> points[c, f]) (iota d)) (iota k)
  in loop centres = first for _i < iters do
      let membership =
        map (\i ->
               let (best, _) =
                 loop (best, best_dist) = (0i64, f32.inf) for c < k do
                   let dist = loop acc = 0f32 for f < d do
                                let x = points[i, f] - centres[c, f]
                                in acc + x * x
                   in if dist < best_dist then (c, dist) else (best, best_dist)
               in best)
            (iota n)
      let counts = reduce_by_index (replicate k 0i32) (+) 0i32 membership (map (\_ -> 1i32) membership)
      let slots = flatten (map (\i -> map (\f -> membership[i] * d + f) (iota d)) (iota n))
      let sums = reduce_by_index (replicate (k * d) 0f32) (+) 0f32 slots (flatten points)
      in map (\c ->
                map (\f -> if counts[c] == 0 then centres[c, f]
                           else sums[c * d + f] / f32.i32 counts[c])
                    (iota d))
             (iota k)
