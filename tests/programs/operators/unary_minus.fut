-- Unary minus on variables and expressions, including negating the lowest i32 (wraps to itself).
-- ==
-- input { 5 }           output { -5 5 -10 8 }
-- input { -2147483648 } output { -2147483648 -2147483648 0 -2147483645 }
-- input { 0 }           output { 0 0 0 3 }
entry main (x: i32) : (i32, i32, i32, i32) =
  (-x, -(-x), -x * 2, x - -3)
