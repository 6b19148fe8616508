-- LUD-like update and a scaled product at 2048 (seventh session, call T).
-- ==
-- entry: lud
-- random input { [2048][2048]f32 [2048][2048]f32 [2048][2048]f32 }
entry lud [n][m] (a: [n][n]f32) (l: [n][m]f32) (u: [m][n]f32) : [n][n]f32 =
  map (\i -> map (\j -> a[i, j] - reduce (+) 0f32 (map (\k -> l[i, k] * u[k, j]) (iota m))) (iota n)) (iota n)
