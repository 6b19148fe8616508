-- An assert inside a loop body fails on the first iteration that violates it.
-- ==
-- input { [1, 2, 3] } output { 6 }
-- input { [1, -2, 3] } error: Assertion is false: .*x >= 0[\s\S]*assert_in_loop\.fut:7:
entry main (xs: []i32) : i32 =
  loop acc = 0 for x in xs do
    acc + assert (x >= 0) x
