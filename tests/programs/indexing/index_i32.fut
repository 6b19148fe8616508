-- Indices of other signed integer types (i32, i8) are accepted.
-- ==
-- input { [10, 20, 30] 2 1i8 } output { 30 20 [30, 20] }
-- input { [10, 20, 30] 0 0i8 } output { 10 10 [10, 10] }
entry main (xs: []i32) (i: i32) (j: i8) : (i32, i32, []i32) =
  (xs[i], xs[j], [xs[i], xs[j]])
