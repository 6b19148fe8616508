-- Perfectly nested maps run one thread per inner element (docs/CODEGEN.md): over rows,
-- over iotas with scalar code before the inner map, with a reduction in the inner
-- element, with two results, with empty rows (the outer statements still run and
-- check), and failures in the outer statements or the inner element (the first in
-- row-major order).
-- ==
-- entry: rows
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[2, 4, 6], [8, 10, 12]] }
-- input { empty([0][3]i32) } output { empty([0][3]i32) }
-- input { [empty([0]i32), empty([0]i32)] } output { [empty([0]i32), empty([0]i32)] }
entry rows (xss: [][]i32) : [][]i32 = map (\row -> map (* 2) row) xss

-- ==
-- entry: table
-- input { [10i64, 20i64, 30i64] [0i64, 2i64] 3i64 }
-- output { [[100i64, 101i64, 102i64], [300i64, 301i64, 302i64]] [[0i64, 0i64, 0i64], [2i64, 2i64, 2i64]] }
-- input { [10i64, 20i64, 30i64] [0i64, 2i64] 0i64 }
-- output { [empty([0]i64), empty([0]i64)] [empty([0]i64), empty([0]i64)] }
-- input { [10i64, 20i64, 30i64] [0i64, 5i64] 0i64 } error: Index \[5\] out of bounds for array of shape \[3\]
-- input { [10i64, 20i64, 30i64] [1i64, 7i64] 2i64 } error: Index \[7\] out of bounds for array of shape \[3\]
entry table [k] (xs: []i64) (is: [k]i64) (m: i64) : ([k][m]i64, [k][m]i64) =
  unzip (map (\i -> let x = xs[i] in unzip (map (\j -> (x * 10 + j, i)) (iota m))) is)

-- ==
-- entry: matmul
-- input { [[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]] [[1f32, 0f32, 2f32], [0f32, 1f32, 3f32]] }
-- output { [[1f32, 2f32, 8f32], [3f32, 4f32, 18f32], [5f32, 6f32, 28f32]] }
entry matmul [n][k][m] (a: [n][k]f32) (b: [k][m]f32) : [n][m]f32 =
  map (\i -> map (\j -> reduce (+) 0 (map (\l -> a[i, l] * b[l, j]) (iota k))) (iota m)) (iota n)

-- ==
-- entry: inner_fail
-- input { [[1, 2], [3, 4]] [1i64, 0i64] } output { [[2, 1], [4, 3]] }
-- input { [[1, 2], [3, 4]] [1i64, 2i64] } error: Index \[0, 2\] out of bounds for array of shape \[2\]\[2\]
-- input { [[1, 2], [3, 4]] [5i64, 0i64] } error: Index \[0, 5\] out of bounds for array of shape \[2\]\[2\]
entry inner_fail [n] (xss: [n][n]i32) (is: [n]i64) : [n][n]i32 =
  map (\r -> map (\i -> xss[r, i]) is) (iota n)
