-- reduce_by_index whose bins are rows: adds each input row into the row named by its index;
-- an out-of-range index drops the whole row.
-- ==
-- input { [[0, 0], [0, 0]] [1i64, 0i64, 1i64, 2i64] [[1, 2], [3, 4], [5, 6], [7, 8]] }
-- output { [[3, 4], [6, 8]] }
entry main [k][n][m] (dest: [k][m]i32) (is: [n]i64) (rows: [n][m]i32) : [k][m]i32 =
  reduce_by_index (copy dest) (\a b -> map2 (+) a b) (replicate m 0) is rows
