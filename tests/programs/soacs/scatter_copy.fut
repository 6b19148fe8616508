-- scatter into a copy of an array that is still used afterwards, and into a fresh replicate.
-- ==
-- input { [1, 2, 3, 4] }  output { [1, 2, 3, 4] [4, 3, 2, 1] [0, 1, 0, 3] }
entry main [n] (xs: [n]i32) : ([n]i32, [n]i32, [n]i32) =
  let rev = scatter (copy xs) (map (\i -> n - 1 - i) (iota n)) xs
  let odd = scatter (replicate n 0) (map (\i -> if i % 2 == 1 then i else -1) (iota n)) (map i32.i64 (iota n))
  in (xs, rev, odd)
