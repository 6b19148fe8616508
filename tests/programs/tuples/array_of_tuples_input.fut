-- An array-of-tuples entry parameter takes its component arrays; the result is an
-- array of tuples listed as component arrays.
-- ==
-- input { [1, 2, 3] [10, 20, 30] }  output { [10, 20, 30] [1, 2, 3] 66 }
-- input { empty([0]i32) empty([0]i32) }  output { empty([0]i32) empty([0]i32) 0 }
entry main (ps: [](i32, i32)) : ([](i32, i32), i32) =
  (map (\(a, b) -> (b, a)) ps, reduce (+) 0 (map (\(a, b) -> a + b) ps))
