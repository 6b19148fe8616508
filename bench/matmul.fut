-- Matrix multiplication of 2048x2048 f32 matrices as nested map/reduce with explicit
-- indexing (inner sequential loops that index both matrices). `nested` is the map of
-- maps a Futhark programmer writes; `flat` is one map over all outputs, the row and
-- column computed by division.
-- ==
-- entry: nested flat
-- nobench input { [[1f32, 2f32], [3f32, 4f32]] [[5f32, 6f32, 7f32], [8f32, 9f32, 10f32]] }
--         output { [[21f32, 24f32, 27f32], [47f32, 54f32, 61f32]] }
-- nobench input { [[2f32]] [[3f32]] } output { [[6f32]] }
-- "2048x2048" no_interp no_cpu input @ data/matmul.in output @ data/matmul.out

def dot [n][m][p] (a: [n][m]f32) (b: [m][p]f32) (i: i64) (j: i64) : f32 =
  reduce (+) 0f32 (map (\k -> a[i, k] * b[k, j]) (iota m))

entry nested [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\i -> map (\j -> dot a b i j) (iota p)) (iota n)

entry flat [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  unflatten n p (map (\t -> dot a b (t / p) (t % p)) (iota (n * p)))
