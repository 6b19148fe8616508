-- while loops: Collatz step count, and a loop whose condition is false at once.
-- ==
-- input { 6 } output { 8 1 }
-- input { 1 } output { 0 1 }
-- input { 27 } output { 111 1 }
entry main (n: i32) : (i32, i32) =
  let (steps, last) =
    loop (k, x) = (0, n) while x != 1 do
      if x % 2 == 0 then (k + 1, x / 2) else (k + 1, 3 * x + 1)
  in (steps, last)
