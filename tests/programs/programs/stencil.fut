-- A 5-point stencil with explicit neighbour indexing (edges clamped), iterated in a loop.
-- Each step: new[i,j] = (4*c + n + s + w + e) / 8 in integers.
-- ==
-- input { [[0, 0, 0, 0], [0, 64, 0, 0], [0, 0, 0, 32]] 1 }
-- output { [[0, 8, 0, 0], [8, 32, 8, 4], [0, 8, 4, 24]] }
-- input { [[0, 0, 0, 0], [0, 64, 0, 0], [0, 0, 0, 32]] 3 }
-- output { [[3, 8, 3, 1], [8, 14, 8, 7], [3, 9, 9, 15]] }
-- input { [[5]] 4 }  output { [[5]] }
def clamp (lo: i64) (hi: i64) (x: i64) : i64 = i64.max lo (i64.min hi x)

def step [n][m] (g: [n][m]i32) : [n][m]i32 =
  tabulate n (\i ->
    tabulate m (\j ->
      let c = g[i, j]
      let up = g[clamp 0 (n - 1) (i - 1), j]
      let down = g[clamp 0 (n - 1) (i + 1), j]
      let left = g[i, clamp 0 (m - 1) (j - 1)]
      let right = g[i, clamp 0 (m - 1) (j + 1)]
      in (4 * c + up + down + left + right) / 8))

entry main [n][m] (g: [n][m]i32) (steps: i32) : [n][m]i32 =
  loop g = g for _k < steps do step g
