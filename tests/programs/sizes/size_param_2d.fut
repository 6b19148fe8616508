-- Two size parameters [n][m] of a rank-2 argument, used to build arrays of those sizes.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }  output { 2i64 3i64 [5, 7, 9] [6, 15] }
-- input { empty([0][4]i32) }        output { 0i64 4i64 [0, 0, 0, 0] empty([0]i32) }
def col_sums [n][m] (xss: [n][m]i32) : [m]i32 =
  map (\j -> reduce (+) 0 (map (\i -> xss[i, j]) (iota n))) (iota m)

def row_sums [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\row -> reduce (+) 0 (row :> [m]i32)) xss

entry main [n][m] (xss: [n][m]i32) : (i64, i64, [m]i32, [n]i32) =
  (n, m, col_sums xss, row_sums xss)
