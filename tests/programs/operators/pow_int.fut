-- Integer exponentiation, including 0 ** 0, negative bases and wrapping on overflow.
-- ==
-- input { 2 10 }  output { 1024 0i8 }
-- input { -3 3 }  output { -27 -27i8 }
-- input { 0 0 }   output { 1 1i8 }
-- input { 2 31 }  output { -2147483648 0i8 }
-- input { 7 1 }   output { 7 7i8 }
entry main (a: i32) (b: i32) : (i32, i8) =
  (a ** b, i8.i32 a ** i8.i32 b)
