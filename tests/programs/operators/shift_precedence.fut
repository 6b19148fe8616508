-- Shifts bind looser than + and tighter than & and comparisons.
-- ==
-- input { 1 2 3 } output { 32 3 true 4 }
-- input { 3 0 1 } output { 6 3 false 0 }
entry main (a: i32) (b: i32) (c: i32) : (i32, i32, bool, i32) =
  (a << b + c, a + b >> 0 | c, a << b == 4, 12 & a << b)
