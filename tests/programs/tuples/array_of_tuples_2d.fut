-- A rank-2 array of tuples built with nested maps, then unzipped row by row.
-- ==
-- input { [1, 2] [10, 20, 30] }
-- output { [[11, 21, 31], [12, 22, 32]] [[10, 20, 30], [20, 40, 60]] }
entry main [n][m] (xs: [n]i32) (ys: [m]i32) : ([n][m]i32, [n][m]i32) =
  let grid = map (\x -> map (\y -> (x + y, x * y)) ys) xs
  in unzip (map (\row -> unzip row) grid)
