-- One expression mixing arithmetic, shift, bitwise, comparison and logical operators.
-- ==
-- input { 3 4 } output { true 113 }
-- input { 0 1 } output { false 18 }
entry main (a: i32) (b: i32) : (bool, i32) =
  (a + 1 << 2 & 0xff == 16 || a * b > 10 && a != 0,
   a * b ** 2 + 1 << 1 | 0x10 ^ a)
