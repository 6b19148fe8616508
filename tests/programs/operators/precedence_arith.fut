-- Precedence and left associativity of + - * / % // %% and **.
-- ==
-- input { 100 5 2 }  output { 110 93 10 200 101 -408 22 0 }
-- input { -7 3 4 }   output { 5 -14 -1 -56 -4 6 -5 0 }
-- input { 9 -4 3 }   output { -3 10 -1 40 11 60 -12 0 }
entry main (a: i32) (b: i32) (c: i32) : (i32, i32, i32, i32, i32, i32, i32, i32) =
  (a + b * c,
   a - b - c,
   a / b / c,
   a * c ** 2 / 2,
   a + b % c,
   a - b * c - a * b + c,
   a * b // c %% 57,
   a / b * b + a % b - a // b * b - a %% b - a + a)
