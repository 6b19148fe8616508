-- A function taking and returning tuples of arrays.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }  output { [5, 7, 9] [-3, -3, -3] }
def sum_diff [n] (a: [n]i32, b: [n]i32) : ([n]i32, [n]i32) =
  (map2 (+) a b, map2 (-) a b)

entry main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32) = sum_diff (xs, ys)
