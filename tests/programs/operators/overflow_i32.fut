-- Signed 32-bit arithmetic wraps around on overflow.
-- ==
-- input { 2147483647 1 } output { -2147483648 -4 -11 }
-- input { 100 3 }        output { 103 1200 -2147483560 }
entry main (a: i32) (b: i32) : (i32, i32, i32) =
  (a + b, a * b * 4, a - b - 2147483647 - 10)
