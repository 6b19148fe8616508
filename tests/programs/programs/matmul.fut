-- Matrix multiplication as nested map/reduce over rows and transposed columns,
-- checked against a loop-based version; includes an empty inner dimension.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] [[7, 8], [9, 10], [11, 12]] }
-- output { [[58, 64], [139, 154]] [[58, 64], [139, 154]] }
-- input { [[2]] [[-3]] }  output { [[-6]] [[-6]] }
-- input { [[1, 0], [0, 1]] [[5, 6], [7, 8]] }  output { [[5, 6], [7, 8]] [[5, 6], [7, 8]] }
-- input { empty([2][0]i32) empty([0][3]i32) }  output { [[0, 0, 0], [0, 0, 0]] [[0, 0, 0], [0, 0, 0]] }
def dot [k] (a: [k]i32) (b: [k]i32) : i32 = reduce (+) 0 (map2 (*) a b)

def matmul [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : [n][m]i32 =
  map (\row -> map (\col -> dot row col) (transpose b)) a

def matmul_loop [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : [n][m]i32 =
  tabulate n (\i -> tabulate m (\j -> loop acc = 0 for l < k do acc + a[i, l] * b[l, j]))

entry main [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : ([n][m]i32, [n][m]i32) =
  (matmul a b, matmul_loop a b)
