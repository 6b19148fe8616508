-- Three perfectly nested maps whose inner element is straight-line code take four
-- consecutive middle elements of one outer element a thread, from 64 middle rows, and
-- have a 32-bit version the host launches when the sizes fit (Note [Three nested maps]
-- in codegen/thread_kernels.cpp). Middle sizes that are not multiples of four (a
-- thread's last group short), 1, 4 and 0; no outer element; one column; fewer than 64
-- rows (one row a thread); outer and middle statements (a scalar of each element, read
-- by every row); b[0, j] and b[1, j] of the outer element, which the four rows share.
-- ==
-- entry: scale
-- random input { [13][7][5]i32 [13][2][5]i32 [13]i32 [7]i32 } auto output
-- random input { [9][70][33]i32 [9][2][33]i32 [9]i32 [70]i32 } auto output
-- random input { [100][1][3]i32 [100][2][3]i32 [100]i32 [1]i32 } auto output
-- random input { [20][4][6]i32 [20][2][6]i32 [20]i32 [4]i32 } auto output
-- random input { [30][6][1]i32 [30][2][1]i32 [30]i32 [6]i32 } auto output
-- random input { [3][5][4]i32 [3][2][4]i32 [3]i32 [5]i32 } auto output
-- random input { [3][0][5]i32 [3][2][5]i32 [3]i32 [0]i32 } auto output
-- random input { [70][3][0]i32 [70][2][0]i32 [70]i32 [3]i32 } auto output
-- random input { [0][7][5]i32 [0][2][5]i32 [0]i32 [7]i32 } auto output
-- input { [[[1, 2], [3, 4], [5, 6]]] [[[10, 20], [1, 2]]] [100] [0, 1, 2] }
-- output { [[[112, 143], [134, 185], [156, 227]]] }
entry scale [k][n][m] (as: [k][n][m]i32) (bs: [k][2][m]i32) (cs: [k]i32) (ds: [n]i32) : [k][n][m]i32 =
  map3 (\a b c ->
          let c2 = c + 1
          in map2 (\r d -> let e = d * 2 + c2
                           in map (\j -> r[j] * b[0, j] + b[1, j] + e) (iota m))
                  a ds)
       as bs cs

-- The same over views: rows of `transpose b` (a strided view of the outer element)
-- added to the rows of a, and a product of the outer and middle indices.
-- ==
-- entry: views
-- random input { [11][6][9]i64 [11][9][6]i64 } auto output
-- random input { [40][2][3]i64 [40][3][2]i64 } auto output
-- input { empty([5][0][3]i64) empty([5][3][0]i64) } auto output
entry views [k][n][m] (as: [k][n][m]i64) (bs: [k][m][n]i64) : [k][n][m]i64 =
  map3 (\o a b ->
          let bt = transpose b
          in map3 (\i r t -> map2 (\x y -> x - y + o * 1000 + i) r t) (iota n) a bt)
       (iota k) as bs

-- A bounds check that fails in one inner element only, of the first, a middle or the
-- last outer element, in a thread's full group of four rows (middle element 1) or in
-- its short last group (middle element 6 of 7); the message is the interpreter's.
-- ==
-- entry: fail_at
-- input { 20i64 7i64 5i64 0i64 1i64 2i64 } error: Index \[7\] out of bounds for array of shape \[5\]
-- input { 20i64 7i64 5i64 10i64 6i64 4i64 } error: Index \[9\] out of bounds for array of shape \[5\]
-- input { 20i64 7i64 5i64 19i64 6i64 0i64 } error: Index \[5\] out of bounds for array of shape \[5\]
-- input { 20i64 7i64 5i64 19i64 3i64 3i64 } error: Index \[8\] out of bounds for array of shape \[5\]
-- input { 20i64 7i64 5i64 20i64 0i64 0i64 } auto output
entry fail_at (k: i64) (n: i64) (m: i64) (fo: i64) (fi: i64) (fj: i64) : [k][n][m]i64 =
  let as = map (\o -> map (\i -> map (\j -> o * 100 + i * 10 + j) (iota m)) (iota n)) (iota k)
  in map2 (\o a ->
             map2 (\i r -> map (\j -> let jj = if o == fo && i == fi && j == fj then j + m else j
                                      in r[jj] + j)
                               (iota m))
                  (iota n) a)
          (iota k) as

-- An assert in the inner element, failing at one element of the first, a middle or the
-- last outer element.
-- ==
-- entry: assert_at
-- input { 20i64 7i64 5i64 0i64 0i64 0i64 } error: Assertion is false: ok
-- input { 20i64 7i64 5i64 9i64 5i64 2i64 } error: Assertion is false: ok
-- input { 20i64 7i64 5i64 19i64 6i64 4i64 } error: Assertion is false: ok
-- input { 20i64 7i64 5i64 -1i64 0i64 0i64 } auto output
entry assert_at (k: i64) (n: i64) (m: i64) (fo: i64) (fi: i64) (fj: i64) : [k][n][m]i64 =
  map (\o -> map (\i -> map (\j -> let ok = !(o == fo && i == fi && j == fj) in assert ok (o * i - j)) (iota m)) (iota n))
      (iota k)

-- A free i64 beyond 2^30: the host's test fails and the 64-bit kernel runs (the
-- results need 64 bits); a small one, the 32-bit kernel.
-- ==
-- entry: big
-- random input { [12][9][7]i64 [12][2][7]i64 1099511627776i64 } auto output
-- random input { [12][9][7]i64 [12][2][7]i64 -1099511627776i64 } auto output
-- random input { [12][9][7]i64 [12][2][7]i64 3i64 } auto output
entry big [k][n][m] (as: [k][n][m]i64) (bs: [k][2][m]i64) (d: i64) : [k][n][m]i64 =
  map2 (\a b -> map (\r -> map (\j -> r[j] * d + b[0, j] * (d + 1) + b[1, j % 2] + (j % 4 + d) * 3) (iota m)) a) as bs

-- Batched products (bench/batched_matmul.fut's shapes): the inner element a reduction,
-- four rows a thread with their reductions in one loop, from 64 middle rows (sizes
-- whose last group is short, 1 and 4 rows, one column, an empty reduction); fewer rows,
-- one a thread.
-- ==
-- entry: prod prod_indexed
-- random input { [13][7][5]i32 [13][5][3]i32 } auto output
-- random input { [5][18][16]i32 [5][16][16]i32 } auto output
-- random input { [70][1][4]i32 [70][4][2]i32 } auto output
-- random input { [20][4][3]i32 [20][3][5]i32 } auto output
-- random input { [30][6][2]i32 [30][2][1]i32 } auto output
-- random input { [2][3][4]i32 [2][4][5]i32 } auto output
-- input { empty([20][5][0]i32) empty([20][0][3]i32) } auto output
-- input { empty([0][5][4]i32) empty([0][4][3]i32) } auto output
-- random input { [20][0][4]i32 [20][4][3]i32 } auto output
entry prod [k][n][m][p] (as: [k][n][m]i32) (bs: [k][m][p]i32) : [k][n][p]i32 =
  map2 (\a b -> map (\r -> map (\c -> reduce (+) 0 (map2 (*) r c)) (transpose b)) a) as bs

entry prod_indexed [k][n][m][p] (as: [k][n][m]i32) (bs: [k][m][p]i32) : [k][n][p]i32 =
  map2 (\a b -> map (\i -> map (\j -> let s = reduce (+) 0 (map (\l -> a[i, l] * b[l, j]) (iota m))
                                      in s * 2 - i32.i64 j)
                               (iota p))
                          (iota n))
       as bs

-- A bounds check that fails in the reduction's loop at one element only (of the first,
-- a middle or the last outer element; a row in a full group of four or in the short
-- last one), with the interpreter's message.
-- ==
-- entry: prod_fail
-- input { 20i64 7i64 5i64 0i64 1i64 2i64 } error: Index \[1, 7\] out of bounds for array of shape \[5\]\[5\]
-- input { 20i64 7i64 5i64 10i64 2i64 4i64 } error: Index \[1, 9\] out of bounds for array of shape \[5\]\[5\]
-- input { 20i64 7i64 5i64 19i64 5i64 0i64 } error: Index \[1, 5\] out of bounds for array of shape \[5\]\[5\]
-- input { 20i64 7i64 5i64 20i64 0i64 0i64 } auto output
entry prod_fail (k: i64) (n: i64) (m: i64) (fo: i64) (fi: i64) (fj: i64) : [k][n][m]i64 =
  let as = map (\o -> map (\i -> map (\j -> o * 100 + i * 10 + j) (iota m)) (iota n)) (iota k)
  let bs = map (\o -> map (\i -> map (\j -> o + i - j) (iota m)) (iota m)) (iota k)
  in map3 (\o a b ->
             map2 (\i r ->
                     map (\j -> let jj = if o == fo && i == fi && j == fj then j + m else j
                                in reduce (+) 0 (map (\l -> r[l] * b[l, if l == 1 then jj else j]) (iota m)))
                         (iota m))
                  (iota n) a)
          (iota k) as bs

-- A reduction of pairs by an operator not known to commute (the first of the largest
-- product, and the sum), its rows in one loop, with statements after it.
-- ==
-- entry: prod_pairs
-- random input { [13][7][5]i32 [13][5][3]i32 } auto output
-- random input { [3][2][4]i32 [3][4][5]i32 } auto output
entry prod_pairs [k][n][m][p] (as: [k][n][m]i32) (bs: [k][m][p]i32) : [k][n][p]i32 =
  map2 (\a b ->
          map (\r ->
                 map (\c -> let (mx, s) = reduce (\(x, s1) (y, s2) -> (if y > x then y else x, s1 + s2))
                                                 (i32.lowest, 0)
                                                 (map2 (\u v -> (u * v, u - v)) r c)
                            in mx ^ s)
                     (transpose b))
              a)
       as bs
