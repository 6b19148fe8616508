-- assert passes its value through when the condition holds and fails with the condition's text.
-- ==
-- input { 4 } output { 2 }
-- input { 0 } error: Assertion is false: .*x > 0[\s\S]*assert_basic\.fut:7:
-- input { -3 } error: Assertion is false
entry main (x: i32) : i32 =
  assert (x > 0) (x / 2)
