-- A division by zero inside a loop body, reached only on some iteration.
-- ==
-- input { [4, 2, 1] } output { 7 }
-- input { [4, 0, 1] } error: division by zero[\s\S]*div_zero_nested\.fut:8:
-- input { empty([0]i32) } output { 0 }
entry main (xs: []i32) : i32 =
  loop acc = 0 for x in xs do
    acc + (if x > 100 then 0 else 4 / x + 0)
