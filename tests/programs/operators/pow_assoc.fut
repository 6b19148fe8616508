-- ** is left-associative in Futhark and binds tighter than *; parentheses override.
-- ==
-- input { 2 3 2 } output { 64 512 18 -8 }
-- input { 3 1 3 } output { 27 3 3 -3 }
entry main (a: i32) (b: i32) (c: i32) : (i32, i32, i32, i32) =
  (a ** b ** c, a ** (b ** c), a * b ** c, -(a ** b))
