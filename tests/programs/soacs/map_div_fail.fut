-- Division by zero inside a map body fails; no failure when no divisor is zero.
-- ==
-- input { [10, -7, 9] [3, 2, -2] }  output { [3, -4, -5] [1, 1, -1] }
-- input { [10, -7, 9] [3, 0, 2] }   error: division by zero
-- input { empty([0]i32) empty([0]i32) }  output { empty([0]i32) empty([0]i32) }
entry main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32) =
  (map2 (\x y -> x / y) xs ys, map2 (%) xs ys)
