-- Softmax over the rows of a 65536 x 1024 f32 matrix (issue 17): per row a maximum, a
-- sum of exponentials (a map fused into the reduction) and a map dividing by it. One
-- block per row (Note [One block per row] in codegen/row_block_kernels.cpp); no checks
-- (the variants should run at the same speed).
-- ==
-- nobench input { [[1f32, 2f32, 3f32], [0f32, 0f32, 0f32]] }
--         output { [[0.09003057f32, 0.24472848f32, 0.66524094f32], [0.33333334f32, 0.33333334f32, 0.33333334f32]] }
-- nobench input { empty([0][5]f32) } output { empty([0][5]f32) }
-- nobench random input { [3][300]f32 } auto output
-- "65536 x 1024" no_interp no_cpu input @ data/softmax.in output @ data/softmax.out
def softmax [m] (row: [m]f32) : [m]f32 =
  let mx = reduce f32.max (-f32.inf) row
  let es = map (\x -> f32.exp (x - mx)) row
  let s = reduce (+) 0f32 es
  in map (\e -> e / s) es

entry main [n][m] (xss: [n][m]f32) : [n][m]f32 = map softmax xss
