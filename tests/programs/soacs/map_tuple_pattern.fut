-- map over zipped arrays with a tuple pattern in the lambda, and annotated parameters.
-- ==
-- input { [1, 2, 3] [4, 5, 6] }  output { [4, 10, 18] [-3, -3, -3] }
entry main [n] (xs: [n]i32) (ys: [n]i32) : ([n]i32, [n]i32) =
  let ps = zip xs ys
  in (map (\(a, b) -> a * b) ps, map (\((a, b): (i32, i32)) -> a - b) ps)
