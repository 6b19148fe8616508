-- Index forms whose bounds checks kerb's range analysis removes (docs/CHECKS.md, Note
-- [Proved in range]): every index here is in range by construction, and every site of
-- this file is eliminated ("proved in range", tests/codegen/patterns.sh). The near
-- misses, which keep their checks and fail, are in
-- tests/programs/failures/near_miss_indices.fut.
-- ==
-- entry: matmul_nested matmul_flat
-- input { [[1f32, 2f32], [3f32, 4f32]] [[5f32, 6f32, 7f32], [8f32, 9f32, 10f32]] }
-- output { [[21f32, 24f32, 27f32], [47f32, 54f32, 61f32]] }
-- input { empty([0][2]f32) [[1f32], [2f32]] } output { empty([0][1]f32) }
-- input { [[1f32], [2f32]] empty([1][0]f32) } output { empty([2][0]f32) }
-- ==
-- entry: backprop
-- input { [1f32, 2f32] [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] }
-- output { [9f32, 12f32, 15f32] [[2f32, 3f32, 4f32], [6f32, 7f32, 8f32]] }
-- ==
-- entry: stencil_nested stencil_flat
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32]] }
-- output { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32]] }
-- input { [[1f32]] } output { [[1f32]] }
-- ==
-- entry: clamps
-- input { [1, 2, 3] } output { [4, 6, 8] }
-- input { [5] } output { [15] }
-- ==
-- entry: rows_loop
-- input { [[1, 2], [3, 4], [5, 6]] } output { 18 }
-- input { [[1, 2]] } output { 0 }
-- input { empty([0][2]i32) } output { 0 }
-- ==
-- entry: guarded
-- input { [1, 2, 3] [-1i64, 0i64, 2i64, 3i64, 9i64] } output { [0, 1, 3, 0, 0] [0, 1, 3, 0, 0] }
-- ==
-- entry: neighbours
-- input { [1, 2, 3] } output { [2, 4, 2] }
-- input { [7] } output { [0] }
-- ==
-- entry: zipped
-- input { [1, 2, 3] [10, 20, 30] } output { [21, 42, 63] }
-- input { [1, 2, 3] [10, 20] } error: cannot match shape of type "\[3\]i32"

entry matmul_nested [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p))
      (iota n)

entry matmul_flat [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  unflatten n p (map (\t -> let i = t / p
                            let j = t % p
                            in loop s = 0f32 for k < m do s + a[i, k] * b[k, j])
                     (iota (n * p)))

entry backprop [nin][nh] (input: [nin]f32) (w: [nin][nh]f32) : ([nh]f32, [nin][nh]f32) =
  let hidden = map (\j -> reduce (+) 0f32 (map (\i -> w[i, j] * input[i]) (iota nin))) (iota nh)
  let w' = map (\i -> map (\j -> w[i, j] + input[i]) (iota nh)) (iota nin)
  in (hidden, w')

def cell [n][m] (g: [n][m]f32) (i: i64) (j: i64) : f32 =
  if i == 0 || j == 0 || i == n - 1 || j == m - 1 then g[i, j]
  else 0.2f32 * (g[i, j] + g[i - 1, j] + g[i + 1, j] + g[i, j - 1] + g[i, j + 1])

entry stencil_nested [n][m] (g: [n][m]f32) : [n][m]f32 =
  map (\i -> map (\j -> cell g i j) (iota m)) (iota n)

entry stencil_flat [n][m] (g: [n][m]f32) : [n][m]f32 =
  unflatten n m (map (\k -> cell g (k / m) (k % m)) (iota (n * m)))

-- hotspot's and pathfinder's clamps
entry clamps [n] (xs: [n]i32) : [n]i32 =
  map (\i -> xs[i64.max 0 (i - 1)] + xs[i] + xs[i64.min (n - 1) (i + 1)]) (iota n)

-- pathfinder's loop over rows 1 .. rows - 1
entry rows_loop [rows][cols] (wall: [rows][cols]i32) : i32 =
  loop s = 0 for r < rows - 1 do s + reduce (+) 0 (map (\j -> wall[r + 1, j]) (iota cols))

-- an iota zipped with arrays of its size (the size coercion's check makes m = n)
entry zipped [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 =
  let ys = ys :> [n]i32
  in map3 (\i x y -> x + y + ys[i]) (iota n) xs ys

-- explicit guards
entry guarded [n] (xs: [n]i32) (is: []i64) : ([]i32, []i32) =
  (map (\i -> if i >= 0 && i < n then xs[i] else 0) is,
   map (\i -> if i < 0 || i >= n then 0 else xs[i]) is)

-- the corpus pathfinder's neighbours
entry neighbours [n] (xs: [n]i32) : [n]i32 =
  map (\j -> (if j > 0 then xs[j - 1] else 0) + (if j < n - 1 then xs[j + 1] else 0)) (iota n)
