-- loop with a tuple of parameters: Fibonacci numbers.
-- ==
-- input { 0 } output { 0 1 }
-- input { 1 } output { 1 1 }
-- input { 10 } output { 55 89 }
-- input { 50 } output { -298632863 -1109825406 }
entry main (n: i32) : (i32, i32) =
  loop (a, b) = (0, 1) for _i < n do (b, a + b)
