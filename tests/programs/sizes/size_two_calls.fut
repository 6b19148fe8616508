-- The same size-parameterised function called on arrays of different sizes.
-- ==
-- input { [1, 2, 3] [4, 5] }  output { [3, 2, 1] [5, 4] 5i64 }
def rev [n] (xs: [n]i32) : [n]i32 = map (\i -> xs[n - 1 - i]) (iota n)

entry main [n][m] (xs: [n]i32) (ys: [m]i32) : ([n]i32, [m]i32, i64) =
  let a = rev xs
  let b = rev ys
  in (a, b, length a + length b)
