-- assert false always fails, even when its value is otherwise unused in a branch taken.
-- ==
-- input { true } error: Assertion is false: false[\s\S]*assert_false\.fut:6:
-- input { false } output { 1 }
entry main (b: bool) : i32 =
  if b then assert false 0 else 1
