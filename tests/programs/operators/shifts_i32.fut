-- << wraps, >> is arithmetic on signed types, >>> is logical.
-- ==
-- input { -16 2 } output { -64 -4 1073741820 }
-- input { 1 31 }  output { -2147483648 0 0 }
-- input { -1 28 } output { -268435456 -1 15 }
-- input { 5 0 }   output { 5 5 5 }
entry main (x: i32) (s: i32) : (i32, i32, i32) =
  (x << s, x >> s, x >>> s)
