-- Rodinia's pathfinder, ported with explicit indexing: dynamic programming down the
-- rows of a grid of weights, each cell adding the cheapest of the three cells above it
-- (neighbours beyond the border clamped). One map per row: 100 rows of 2^20 columns,
-- 99 kernels that each depend on the last.
-- ==
-- nobench input { [[1, 2, 3, 4], [4, 3, 2, 1], [1, 1, 1, 9]] } output { [5, 5, 5, 13] }
-- nobench input { [[7, 8]] } output { [7, 8] }
-- "100x2^20" no_interp no_cpu input @ data/pathfinder.in output @ data/pathfinder.out
entry main [rows][cols] (wall: [rows][cols]i32) : [cols]i32 =
  loop prev = copy wall[0] for r < rows - 1 do
    map (\j ->
           let l = prev[i64.max 0 (j - 1)]
           let c = prev[j]
           let x = prev[i64.min (cols - 1) (j + 1)]
           in wall[r + 1, j] + i32.min c (i32.min l x))
        (iota cols)
