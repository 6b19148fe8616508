-- copy of a rank-2 array, then an in-place row update of the copy.
-- ==
-- input { [[1, 2], [3, 4]] }  output { [[1, 2], [3, 4]] [[1, 2], [0, 0]] }
entry main [n][m] (xss: [n][m]i32) : ([n][m]i32, [n][m]i32) =
  let yss = copy xss
  let yss[n - 1] = replicate m 0
  in (xss, yss)
