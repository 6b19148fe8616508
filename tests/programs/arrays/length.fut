-- length gives the outer size of rank 1 and rank 2 arrays and of arrays of tuples.
-- ==
-- input { [1, 2, 3] [[1, 2], [3, 4], [5, 6], [7, 8]] }  output { 3i64 4i64 2i64 3i64 }
-- input { empty([0]i32) empty([0][5]i32) }              output { 0i64 0i64 0i64 0i64 }
entry main [n][m][k] (xs: [n]i32) (yss: [m][k]i32) : (i64, i64, i64, i64) =
  (length xs, length yss, if m > 0 then length (yss[0]) else 0, length (zip xs xs))
