-- Size coercion :> fails at run time when the sizes differ (map2 of arrays of different lengths).
-- ==
-- input { [1, 2, 3] [10, 20, 30] }  output { [11, 22, 33] }
-- input { [1, 2, 3] [10, 20] }      error: cannot match shape of type
-- input { [1, 2] [10, 20, 30] }     error: coerce_fail\.fut:7:
entry main [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 =
  map2 (+) xs (ys :> [n]i32)
