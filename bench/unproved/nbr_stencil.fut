-- A 5-point stencil whose neighbours come from index arrays, in the shape of Rodinia's
-- srad: the row above and below row i are iN[i] and iS[i], the columns left and right of
-- column j are jW[j] and jE[j] (clamped at the edges by the input, as srad builds them),
-- over a 4096x4096 image (2^24 cells), f32. Measures a map whose five gathers of a cell
-- are independent loads: without checks they issue together; each neighbour's index is
-- read from memory, so no analysis can prove the gathers in bounds and every cell checks
-- four of them (img[i, j] itself is proved).
-- Inputs from bench/gen_data.py (bench/data/nbr_stencil.in); part of the group of
-- programs whose checks cannot be proved (bench/README.md, "Checks that cannot be
-- proved").
--
-- The cases: results, then one failing cell each: the first (a row above row 0), a middle
-- one (column 2's right neighbour) and the last (the row below the last row).
-- ==
-- nobench input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] [0i64, 0i64] [1i64, 1i64]
--                 [0i64, 0i64, 1i64] [1i64, 2i64, 2i64] }
--         output { [[1.8f32, 2.6f32, 3.4f32], [3.6f32, 4.4f32, 5.2f32]] }
-- nobench input { empty([0][4]f32) empty([0]i64) empty([0]i64) [0i64, 0i64, 1i64, 2i64]
--                 [1i64, 2i64, 3i64, 3i64] }
--         output { empty([0][4]f32) }
-- nobench input { [[1f32], [2f32], [3f32]] [-1i64, 0i64, 1i64] [1i64, 2i64, 2i64] [0i64] [0i64] }
--         error: Index \[-1, 0\] out of bounds for array of shape \[3\]\[1\][\s\S]*nbr_stencil\.fut:33:39-51
-- nobench input { [[1f32, 2f32, 3f32, 4f32, 5f32]] [0i64] [0i64] [0i64, 0i64, 1i64, 2i64, 3i64]
--                 [1i64, 2i64, 5i64, 4i64, 4i64] }
--         error: Index \[0, 5\] out of bounds for array of shape \[1\]\[5\][\s\S]*nbr_stencil\.fut:33:87-99
-- nobench input { [[1f32], [2f32], [3f32]] [0i64, 0i64, 1i64] [1i64, 2i64, 3i64] [0i64] [0i64] }
--         error: Index \[3, 0\] out of bounds for array of shape \[3\]\[1\][\s\S]*nbr_stencil\.fut:33:55-67
-- "4096x4096" no_interp no_cpu input @ ../data/nbr_stencil.in output @ ../data/nbr_stencil.out
entry main [rows][cols] (img: [rows][cols]f32) (iN: [rows]i64) (iS: [rows]i64) (jW: [cols]i64)
                        (jE: [cols]i64) : [rows][cols]f32 =
  map (\i ->
         map (\j ->
                0.2f32 * (img[i, j] + img[iN[i], j] + img[iS[i], j] + img[i, jW[j]] + img[i, jE[j]]))
             (iota cols))
      (iota rows)
