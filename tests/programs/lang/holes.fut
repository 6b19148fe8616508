-- Typed holes (`???`) type-check as anything and fail where they are evaluated, also
-- when their type is a function's.
-- ==
-- input { true 1 }   output { [1, 2, 3] 1 }
-- input { false 1 }  error: hole
-- entry: main

def todo (x: i32) : i32 = ???

entry main (b: bool) (x: i32) =
  let f : i32 -> i32 = ???
  in (if b then [1, 2, 3] else ???, if b then x else f x)

-- ==
-- entry: fn
-- input { 0 }  output { 0 }
-- input { 2 }  error: Assertion is false: hole

entry fn (n: i32) = loop acc = 0 for _i < n do todo acc
