-- Found by kerb difftest (seed 7409, interp vs cpu): a map over no elements whose rows
-- have size `length (transpose p6)`: compiled code gave empty([0][m]), the interpreter
-- empty([0][0]) (its trial call of the lambda failed, and the type did not know the
-- size). `length xs` now has xs's outer size, as in Futhark.
-- ==
-- entry: main
-- input { empty([0][16]bool) -8.0f64 true }
-- output { empty([0][16]i64) }
-- input { [[true, false, true]] 1.0f64 false }
-- output { empty([0][3]i64) }
-- ==
-- entry: rows
-- input { [[1, 2, 3], [4, 5, 6]] 0i64 }
-- output { empty([0][2]i32) }
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 }
-- output { [[2, 5]] }
entry main [n] [m] (p6: [n][m]bool) (p7: f64) (p8: bool) : [][]i64 =
  map2 (\_ (x19: []i64) -> map2 (\_ _ -> last x19)
                                (map (\_ -> 0f32) (iota (length (transpose p6))))
                                (iota (length (transpose p6))))
       (iota 0)
       (map2 (\_ _ -> map (\_ -> 0i64) (iota 0)) (iota 0) (replicate 0 p7))

entry rows [n] [m] (xss: [n][m]i32) (k: i64) : [][]i32 =
  map (\j -> map (\i -> xss[i, j] + xss[i, j] / xss[i, j]) (iota (length xss))) (iota k)
