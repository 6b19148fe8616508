-- Three perfectly nested maps run one thread per innermost element, in 2-D tiles over
-- the outer and middle elements' rows (Note [Three nested maps] in
-- codegen/thread_kernels.cpp): batched products over the rows of a and the columns of
-- `transpose b`, and with explicit indexing over iotas; a gather whose one bad index is
-- in the first, a middle or the last element; failures in the outer statements when
-- the middle map is empty and in the middle statements when the inner map is; and every
-- size empty in turn.
-- ==
-- entry: rows indexed
-- input { [[[1, 2], [3, 4]], [[0, 1], [1, 0]]] [[[5, 6], [7, 8]], [[2, 3], [4, 5]]] }
-- output { [[[19, 22], [43, 50]], [[4, 5], [2, 3]]] }
-- input { [[[1, 2, 3], [-1, 0, 2]]] [[[1], [2], [3]]] } output { [[[14], [5]]] }
-- input { empty([0][2][2]i32) empty([0][2][2]i32) } output { empty([0][2][2]i32) }
-- input { empty([2][0][3]i32) [[[1, 2], [3, 4], [5, 6]], [[1, 0], [0, 1], [1, 1]]] }
-- output { empty([2][0][2]i32) }
-- input { [[[1, 2]], [[3, 4]]] empty([2][2][0]i32) } output { empty([2][1][0]i32) }
-- input { empty([2][2][0]i32) empty([2][0][3]i32) }
-- output { [[[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]]] }
-- input { [[[1, 2], [3, 4]]] [[[1, 2, 3]]] } error: .*
def matmul [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\r -> map (\c -> reduce (+) 0 (map2 (*) r c)) (transpose b)) a

def matmul_indexed [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\i -> map (\j -> reduce (+) 0 (map (\k -> a[i, k] * b[k, j]) (iota m))) (iota p)) (iota n)

entry rows [k][n][m][p] (as: [k][n][m]i32) (bs: [k][m][p]i32) : [k][n][p]i32 =
  map2 (\a b -> matmul a b) as bs

entry indexed [k][n][m][p] (as: [k][n][m]i32) (bs: [k][m][p]i32) : [k][n][p]i32 =
  map2 (\a b -> matmul_indexed a b) as bs

-- ==
-- entry: gather
-- input { [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
--         [[[2i64, 0i64], [1i64, 1i64]], [[0i64, 2i64], [2i64, 1i64]]] }
-- output { [[[3, 1], [5, 5]], [[7, 9], [12, 11]]] }
-- input { [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
--         [[[5i64, 0i64], [1i64, 1i64]], [[0i64, 2i64], [2i64, 1i64]]] }
-- error: Index \[5\] out of bounds for array of shape \[3\]
-- input { [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
--         [[[2i64, 0i64], [1i64, 1i64]], [[0i64, -7i64], [2i64, 1i64]]] }
-- error: Index \[-7\] out of bounds for array of shape \[3\]
-- input { [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
--         [[[2i64, 0i64], [1i64, 1i64]], [[0i64, 2i64], [2i64, 9i64]]] }
-- error: Index \[9\] out of bounds for array of shape \[3\]
-- input { empty([0][2][3]i32) empty([0][2][2]i64) } output { empty([0][2][2]i32) }
-- input { empty([2][0][3]i32) empty([2][0][2]i64) } output { empty([2][0][2]i32) }
-- input { [[[1, 2, 3]]] [[empty([0]i64)]] } output { [[empty([0]i32)]] }
entry gather [k][n][m][p] (as: [k][n][m]i32) (jsss: [k][n][p]i64) : [k][n][p]i32 =
  map2 (\a jss -> map2 (\r js -> map (\j -> r[j]) js) a jss) as jsss

-- ==
-- entry: outer_fail
-- input { [1, 2, 3] [0i64, 2i64] [[10, 20, 30]] }
-- output { [[[11, 21, 31]], [[13, 23, 33]]] }
-- input { [1, 2, 3] [0i64, 2i64] empty([0][3]i32) } output { empty([2][0][3]i32) }
-- input { [1, 2, 3] [0i64, 5i64] empty([0][3]i32) }
-- error: Index \[5\] out of bounds for array of shape \[3\]
-- input { [1, 2, 3] [4i64, 0i64] [[10, 20, 30]] }
-- error: Index \[4\] out of bounds for array of shape \[3\]
entry outer_fail [k][n][p] (xs: []i32) (is: [k]i64) (yss: [n][p]i32) : [k][n][p]i32 =
  map (\i -> let x = xs[i] in map (\ys -> map (\y -> x + y) ys) yss) is

-- ==
-- entry: middle_fail
-- input { [1, 2, 3] [[0i64, 2i64], [1i64, 1i64]] [10, 100] }
-- output { [[[10, 100], [30, 300]], [[20, 200], [20, 200]]] }
-- input { [1, 2, 3] [[0i64, 2i64], [1i64, 1i64]] empty([0]i32) }
-- output { [[empty([0]i32), empty([0]i32)], [empty([0]i32), empty([0]i32)]] }
-- input { [1, 2, 3] [[0i64, 2i64], [1i64, 6i64]] empty([0]i32) }
-- error: Index \[6\] out of bounds for array of shape \[3\]
-- input { [1, 2, 3] [[0i64, 3i64], [1i64, 1i64]] [10, 100] }
-- error: Index \[3\] out of bounds for array of shape \[3\]
entry middle_fail [k][n][p] (xs: []i32) (jss: [k][n]i64) (cs: [p]i32) : [k][n][p]i32 =
  map (\js -> map (\j -> let y = xs[j] in map (\c -> y * c) cs) js) jss
