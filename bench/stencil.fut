-- A 2-D 5-point stencil over an 8192x8192 grid (boundary cells copied): neighbour
-- indexing whose bounds checks a range analysis could prove. Two forms of the same
-- computation: `nested` as a Futhark programmer writes it (a map of maps), and `flat`
-- (one map over all cells, the row and column computed by division), which is how a
-- code generator that runs only the outer map in parallel gets a thread per cell.
-- ==
-- entry: nested flat
-- nobench input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32]] }
--         output { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32]] }
-- nobench input { [[1f32, 2f32, 3f32, 4f32], [5f32, 6f32, 7f32, 8f32],
--                  [9f32, 10f32, 11f32, 12f32], [13f32, 14f32, 15f32, 17f32]] }
--         output { [[1f32, 2f32, 3f32, 4f32], [5f32, 6f32, 7f32, 8f32],
--                   [9f32, 10f32, 11f32, 12f32], [13f32, 14f32, 15f32, 17f32]] }
-- nobench input { [[0f32, 0f32, 0f32], [0f32, 5f32, 0f32], [0f32, 10f32, 0f32],
--                  [0f32, 0f32, 0f32]] }
--         output { [[0f32, 0f32, 0f32], [0f32, 3f32, 0f32], [0f32, 3f32, 0f32],
--                   [0f32, 0f32, 0f32]] }
-- nobench input { empty([0][0]f32) } output { empty([0][0]f32) }
-- "8192x8192" no_interp no_cpu input @ data/stencil.in output @ data/stencil.out

def cell [n][m] (g: [n][m]f32) (i: i64) (j: i64) : f32 =
  if i == 0 || j == 0 || i == n - 1 || j == m - 1 then g[i, j]
  else 0.2f32 * (g[i, j] + g[i - 1, j] + g[i + 1, j] + g[i, j - 1] + g[i, j + 1])

entry nested [n][m] (g: [n][m]f32) : [n][m]f32 =
  map (\i -> map (\j -> cell g i j) (iota m)) (iota n)

entry flat [n][m] (g: [n][m]f32) : [n][m]f32 =
  let cells = map (\k -> cell g (k / m) (k % m)) (iota (n * m))
  in unflatten n m cells
