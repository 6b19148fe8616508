-- Matrix products whose element has statements around the dot (Note [Matrix products]
-- in codegen/extract_kernels.cpp: the epilogue), in block and register tiles when the
-- output has at least 32 rows and columns: LUD's update `a[i, j] - dot` (a read of the
-- host at the output's indices before the dot), a scaled product with the old value
-- (`alpha * dot + beta * c[i, j]`), the split form over iota (n * p), the rows form with
-- a square root of a distance, a conversion of an integer dot. Sizes below, at and past
-- the tiles' edges (31, 33, 40, 130; the CPU device's tiles are 32 x 32; the split form
-- past 16384 outputs, where the segmented reduction gives way).
-- ==
-- entry: lud
-- random input { [33][33]f32 [33][7]f32 [7][33]f32 } auto output
-- random input { [130][130]f32 [130][40]f32 [40][130]f32 } auto output
-- random input { [31][31]f32 [31][5]f32 [5][31]f32 } auto output
-- random input { [40][40]f32 [40][0]f32 [0][40]f32 } auto output
entry lud [n][m] (a: [n][n]f32) (l: [n][m]f32) (u: [m][n]f32) : [n][n]f32 =
  map (\i -> map (\j -> a[i, j] - reduce (+) 0f32 (map (\k -> l[i, k] * u[k, j]) (iota m))) (iota n)) (iota n)

-- ==
-- entry: gemm
-- random input { 2f64 -0.5f64 [40][9]f64 [9][33]f64 [40][33]f64 } auto output
-- random input { 1f64 1f64 [64][64]f64 [64][70]f64 [64][70]f64 } auto output
entry gemm [n][m][p] (alpha: f64) (beta: f64) (a: [n][m]f64) (b: [m][p]f64) (c: [n][p]f64) : [n][p]f64 =
  map (\i -> map (\j -> let old = c[i, j]
                        let d = reduce (+) 0f64 (map (\k -> a[i, k] * b[k, j]) (iota m))
                        in alpha * d + beta * old)
                 (iota p))
      (iota n)

-- ==
-- entry: split
-- random input { [130][6]i32 [6][130]i32 [130][130]i32 } auto output
-- random input { [3][6]i32 [6][4]i32 [3][4]i32 } auto output
entry split [n][m][p] (a: [n][m]i32) (b: [m][p]i32) (c: [n][p]i32) : [n][p]i32 =
  let cs = map (\t -> let i = t / p
                      let j = t % p
                      in c[i, j] * 3 + reduce (+) 0i32 (map (\k -> a[i, k] * b[k, j]) (iota m)))
               (iota (n * p))
  in unflatten n p cs

-- ==
-- entry: distance
-- random input { [33][5]f32 [40][5]f32 } auto output
-- random input { [130][3]f32 [31][3]f32 } auto output
entry distance [n][m][p] (xs: [n][m]f32) (ys: [p][m]f32) : [n][p]f32 =
  map (\x -> map (\y -> f32.sqrt (reduce (+) 0f32 (map2 (\u v -> (u - v) * (u - v)) x y))) ys) xs

-- ==
-- entry: widened
-- random input { [40][8]i32 [8][50]i32 } auto output
entry widened [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]f64 =
  map (\i -> map (\j -> f64.i32 (reduce (+) 0i32 (map (\k -> a[i, k] * b[k, j]) (iota m))) / 2f64) (iota p))
      (iota n)

-- An epilogue with a kept check (the row read through an index array) keeps the other
-- versions; its failure is the interpreter's message, at some failing column (every
-- output of the row fails: the interpreter reports column 0, the GPU any).
-- ==
-- entry: gathered
-- input { 40i64 -1i64 } auto output
-- input { 40i64 39i64 } error: Index \[40, [0-9]+\] out of bounds for array of shape \[40\]\[40\]
entry gathered (n: i64) (bad: i64) : i64 =
  let a = map (\i -> map (\k -> i * 3 + k) (iota 8)) (iota n)
  let b = map (\k -> map (\j -> k - j) (iota n)) (iota 8)
  let c = map (\i -> map (\j -> i + j) (iota n)) (iota n)
  let rows = map (\i -> if i == bad then n else i) (iota n)
  let r = map (\i -> map (\j -> c[rows[i], j] + reduce (+) 0i64 (map (\k -> a[i, k] * b[k, j]) (iota 8))) (iota n))
              (iota n)
  in i64.sum (map i64.sum r) % 100000
