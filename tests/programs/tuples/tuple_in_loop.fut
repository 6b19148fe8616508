-- A loop with a tuple accumulator (Fibonacci pair), and a tuple of arrays in a loop.
-- ==
-- input { 10 }  output { 55 89 [10, 0] }
-- input { 0 }   output { 0 1 [0, 0] }
entry main (n: i32) : (i32, i32, []i32) =
  let (a, b) = loop (a, b) = (0, 1) for _i < n do (b, a + b)
  let (xs, ys) = loop (xs, ys) = ([0], [0]) for i < n do (map (+ 1) xs, map (* i) ys)
  in (a, b, xs ++ ys)
