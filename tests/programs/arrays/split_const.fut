-- split with constant sizes: the argument is coerced to [2 + 3], which fails unless it
-- has exactly five elements.
-- ==
-- input { [1, 2, 3, 4, 5] }  output { [1, 2] [3, 4, 5] 3 }
-- input { [1, 2, 3, 4] }     error: cannot match shape of type
entry main (xs: []i32) : ([2]i32, [3]i32, i32) =
  let (a, b) = split (xs :> [2 + 3]i32)
  in (a, b, a[1] + a[0])
