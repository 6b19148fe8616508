-- Size coercion e :> [n]t succeeds when the sizes agree and fails at run time when not.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] }
-- input { [1, 2] [4, 5, 6] } error: Value of \(desugared\) shape \[3\] cannot match shape of type[\s\S]*size_coercion\.fut:6:
entry main [n] [m] (xs: [n]i32) (ys: [m]i32) : [n]i32 =
  map2 (+) xs (ys :> [n]i32)
