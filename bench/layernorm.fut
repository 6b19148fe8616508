-- Layer normalisation over the rows of a 65536 x 1024 f32 matrix (issue 17), without
-- scale and shift: per row the mean, the variance (a map fused into its reduction) and
-- the normalised row. One block per row (Note [One block per row] in
-- codegen/row_block_kernels.cpp); no checks.
-- ==
-- nobench input { [[1f32, 2f32, 3f32, 4f32], [5f32, 5f32, 5f32, 5f32]] }
--         output { [[-1.3416355f32, -0.44721183f32, 0.44721183f32, 1.3416355f32], [0f32, 0f32, 0f32, 0f32]] }
-- nobench random input { [3][300]f32 } auto output
-- "65536 x 1024" no_interp no_cpu input @ data/layernorm.in output @ data/layernorm.out
def layernorm [m] (row: [m]f32) : [m]f32 =
  let mean = reduce (+) 0f32 row / f32.i64 m
  let var = reduce (+) 0f32 (map (\x -> (x - mean) * (x - mean)) row) / f32.i64 m
  let inv = 1f32 / f32.sqrt (var + 1e-5f32)
  in map (\x -> (x - mean) * inv) row

entry main [n][m] (xss: [n][m]f32) : [n][m]f32 = map layernorm xss
