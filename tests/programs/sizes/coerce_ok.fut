-- Size coercion :> that succeeds lets map2 combine arrays of (dynamically) equal size.
-- ==
-- input { [1, 2, 3] [10, 20, 30] }  output { [11, 22, 33] }
-- input { empty([0]i32) empty([0]i32) }  output { empty([0]i32) }
entry main [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 =
  map2 (+) xs (ys :> [n]i32)
