-- Three nested maps whose inner element reduces (batched small products) run one block
-- per outer element, the element's arrays copied into shared memory first, when each
-- has at most --stage-max elements (default 1024) and the element 64 or more outputs
-- (Note [Small elements staged in shared memory] in codegen/staged_kernels.cpp), else
-- the 2-D tiles. Sizes: exactly 64 and 256 outputs, outputs that are not a multiple of
-- the block (289: threads take two), odd reductions (m = 7, 1, 0), a product whose
-- arrays pass the bound (40 x 40: the tiles), fewer than 64 outputs (the tiles), no
-- outer element, no column (p = 0: the middle elements' statements still run).
-- ==
-- entry: products
-- random input { [5][8][7]f32 [5][7][8]f32 } auto output
-- random input { [3][16][16]f32 [3][16][16]f32 } auto output
-- random input { [4][17][5]f32 [4][5][17]f32 } auto output
-- random input { [2][3][40]f32 [2][40][40]f32 } auto output
-- random input { [2][40][40]f32 [2][40][3]f32 } auto output
-- random input { [6][64][1]f32 [6][1][2]f32 } auto output
-- random input { [7][4][4]f32 [7][4][4]f32 } auto output
-- random input { [2][70][0]f32 [2][0][5]f32 } auto output
-- random input { [3][65][2]f32 [3][2][0]f32 } auto output
-- random input { [0][16][16]f32 [0][16][16]f32 } auto output
-- random input { [11][16][16]f32 [11][16][16]f32 } auto output
-- random input { [19][8][8]f32 [19][8][8]f32 } auto output
-- input { [[[1f32, 2f32], [3f32, 4f32]]] [[[5f32, 6f32], [7f32, 8f32]]] }
-- output { [[[19f32, 22f32], [43f32, 50f32]]] }
entry products [k][n][m][p] (as: [k][n][m]f32) (bs: [k][m][p]f32) : [k][n][p]f32 =
  map2 (\a b -> map (\r -> map (\c -> reduce (+) 0f32 (map2 (*) r c)) (transpose b)) a) as bs

-- Products of views: a slice of the outer arrays (the map's array a view whose
-- elements are not contiguous: the copies read them row-major through their strides)
-- and `transpose b` inside the map (a view of a copy).
-- ==
-- entry: views
-- random input { [10][9][12]i32 [10][8][8]i32 } auto output
-- random input { [3][16][17]i32 [3][16][16]i32 } auto output
entry views [k][n][m][p] (as: [k][n][m]i32) (bs: [k][p][p]i32) : [k][n][p]i32 =
  let ats = as[:, :, 1:p + 1] :> [k][n][p]i32
  in map2 (\a b -> map (\r -> map (\c -> reduce (+) 0i32 (map2 (*) r c)) (transpose b)) a) ats bs

-- Explicit indices (a[i, l] * b[l, j]) of i64, a scalar of each outer element and of each
-- middle element (in every output), and a free array read by the inner element (in
-- global memory: not the outer element's).
-- ==
-- entry: indexed
-- random input { [9][9][4]i64 [9][4][9]i64 [9]i64 [4]i64 } auto output
-- random input { [2][12][30]i64 [2][30][33]i64 [2]i64 [30]i64 } auto output
-- random input { [4][20][1]i64 [4][1][5]i64 [4]i64 [1]i64 } auto output
entry indexed [k][n][m][p] (as: [k][n][m]i64) (bs: [k][m][p]i64) (cs: [k]i64) (ws: [m]i64) : [k][n][p]i64 =
  map3 (\a b c ->
          let c2 = c * 3
          in map (\i -> let e = i + c2
                        in map (\j -> reduce (+) e (map (\l -> a[i, l] * b[l, j] * ws[l]) (iota m))) (iota p))
                 (iota n))
       as bs cs

-- The outer element's arrays of several types and ranks: a row of weights (rank 1), a
-- mask of bools and an i32 matrix; f64 results.
-- ==
-- entry: mixed
-- random input { [3][10][8]i32 [3][8]f64 [3][8][12]bool } auto output
-- random input { [2][64][3]i32 [2][3]f64 [2][3][1]bool } auto output
entry mixed [k][n][m][p] (as: [k][n][m]i32) (ws: [k][m]f64) (ms: [k][m][p]bool) : [k][n][p]f64 =
  map3 (\a w mk ->
          map (\r -> map (\c -> reduce (+) 0f64 (map3 (\x y z -> if z then f64.i32 x * y else y) r w c))
                         (transpose mk))
              a)
       as ws ms

-- Gathers whose indices come from the outer element's arrays, a bounds check that
-- fails in one output only: of the first, a middle or the last outer element, in the
-- first, a middle or the last output; the message and values are the interpreter's.
-- ==
-- entry: gather_fail
-- input { 5i64 0i64 0i64 0i64 } error: Index \[8, 0\] out of bounds for array of shape \[8\]\[10\]
-- input { 5i64 2i64 3i64 5i64 } error: Index \[8, 5\] out of bounds for array of shape \[8\]\[10\]
-- input { 5i64 4i64 7i64 9i64 } error: Index \[8, 9\] out of bounds for array of shape \[8\]\[10\]
-- input { 5i64 4i64 8i64 0i64 } auto output
entry gather_fail (k: i64) (fo: i64) (fi: i64) (fj: i64) : [k][8][10]i64 =
  let as = map (\o -> map (\i -> map (\l -> (o + i + l) % 8) (iota 8)) (iota 8)) (iota k)
  let bs = map (\o -> map (\l -> map (\j -> o * 10 + l * j) (iota 10)) (iota 8)) (iota k)
  in map3 (\o a b ->
             map (\i -> map (\j -> let bad = o == fo && i == fi && j == fj
                                   in reduce (+) 0 (map (\l -> let x = a[i, l]
                                                               in b[if bad && l == 7 then 8 else x, j])
                                                        (iota 8)))
                            (iota 10))
                 (iota 8))
          (iota k) as bs

-- An assert in the middle lambda (every output of its middle element runs it) and a
-- division by data in the reduction; 8 x 8 outputs an element. The failing element
-- is the first, a middle or the last outer one.
-- ==
-- entry: assert_div
-- input { 4i64 -1i64 -1i64 } auto output
-- input { 4i64 0i64 -1i64 } error: Assertion is false
-- input { 4i64 3i64 -1i64 } error: Assertion is false
-- input { 4i64 -1i64 2i64 } error: division by zero
entry assert_div (k: i64) (zo: i64) (dz: i64) : [k][8][8]i32 =
  let as = map (\o -> map (\i -> map (\l -> if o == zo && i == 5 && l == 3 then 0 else i32.i64 (o + i + l) % 5 + 1)
                                     (iota 4))
                         (iota 8))
               (iota k)
  let bs = map (\o -> map (\l -> map (\j -> if o == dz && l == 1 && j == 7 then 0 else i32.i64 (l + j) % 3 + 1)
                                     (iota 8))
                         (iota 4))
               (iota k)
  in map2 (\a b ->
             map (\r -> let ok = assert (r[3] != 0) r
                        in map (\c -> reduce (+) 0i32 (map2 (\x y -> 1000 / (x * y)) ok c)) (transpose b))
                 a)
          as bs
