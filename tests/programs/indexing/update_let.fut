-- The `let a[i] = v` form of in-place update, several in sequence.
-- ==
-- input { [0, 0, 0, 0] } output { [5, 0, 7, 9] }
-- input { [1, 1, 1, 1] } output { [5, 1, 7, 9] }
entry main (xs: *[]i32) : []i32 =
  let xs[0] = 5
  let xs[2] = 7
  let xs[3] = xs[2] + 2
  in xs
