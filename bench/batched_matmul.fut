-- Batched small matrix products (issue 17): 2^16 products of 16x16 f32 matrices, one
-- product per pair of as and bs. `rows` is the product as Futhark programmers write it
-- (over the rows of a and the columns of b, `map2 (*)` and a sum), mapped over the
-- batch with map2; `indexed` is the same with explicit indexing (matmul.fut's `nested`
-- in a map over the batch); `flat` is one map over every output of every product, the
-- product, row and column computed by division (matmul.fut's `flat`: what Kerb runs one
-- thread per output, in 2-D tiles, as the nested forms are since Note [Three nested
-- maps] in codegen/thread_kernels.cpp; they ran one thread per product before).
-- The work is small (16^3 multiply-adds a product) and the
-- data large (3 x 64 MB): the kernels should run at the copy rate. No checks left in
-- them (every index is in range by construction).
-- ==
-- entry: rows indexed flat
-- nobench input { [[[1f32, 2f32], [3f32, 4f32]], [[0f32, 1f32], [1f32, 0f32]]]
--                 [[[5f32, 6f32], [7f32, 8f32]], [[2f32, 3f32], [4f32, 5f32]]] }
--         output { [[[19f32, 22f32], [43f32, 50f32]], [[4f32, 5f32], [2f32, 3f32]]] }
-- nobench input { [[[1f32, 2f32, 3f32], [-1f32, 0f32, 2f32]]] [[[1f32], [2f32], [3f32]]] }
--         output { [[[14f32], [5f32]]] }
-- nobench input { empty([0][16][16]f32) empty([0][16][16]f32) } output { empty([0][16][16]f32) }
-- nobench random input { [37][16][16]f32 [37][16][16]f32 } auto output
-- "2^16 of 16x16" no_interp no_cpu input @ data/batched_matmul.in output @ data/batched_matmul.out

def matmul [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\r -> map (\c -> reduce (+) 0f32 (map2 (*) r c)) (transpose b)) a

def matmul_indexed [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\i -> map (\j -> reduce (+) 0f32 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)

entry rows [k][n][m][p] (as: [k][n][m]f32) (bs: [k][m][p]f32) : [k][n][p]f32 =
  map2 (\a b -> matmul a b) as bs

entry indexed [k][n][m][p] (as: [k][n][m]f32) (bs: [k][m][p]f32) : [k][n][p]f32 =
  map2 (\a b -> matmul_indexed a b) as bs

entry flat [k][n][m][p] (as: [k][n][m]f32) (bs: [k][m][p]f32) : [k][n][p]f32 =
  let rows = k * n
  let cs = map (\t -> let r = t / p
                      let j = t % p
                      let b = r / n
                      let i = r % n
                      in reduce (+) 0f32 (map (\l -> as[b, i, l] * bs[b, l, j]) (iota m)))
               (iota (rows * p))
  in unflatten k n (unflatten rows p cs)
