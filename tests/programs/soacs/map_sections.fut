-- Operator sections as map arguments: right section (*2), left section (2-),
-- and (+)/(-) as binary operators for map2.
-- ==
-- input { [1, 5, -3] [10, 20, 30] }
-- output { [2, 10, -6] [1, -3, 5] [11, 25, 27] [-9, -15, -33] [false, true, false] }
-- input { empty([0]i32) empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) empty([0]i32) empty([0]i32) empty([0]bool) }
entry main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32, [n]i32, [n]i32, [n]bool) =
  (map (*2) xs, map (2-) xs, map2 (+) xs ys, map2 (-) xs ys, map (> 2) xs)
