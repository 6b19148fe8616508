-- Signed / and % round towards negative infinity; // and %% truncate towards zero.
-- ==
-- input { 7 2 }   output { 3 1 3 1 }
-- input { -7 2 }  output { -4 1 -3 -1 }
-- input { 7 -2 }  output { -4 -1 -3 1 }
-- input { -7 -2 } output { 3 -1 3 -1 }
-- input { 6 3 }   output { 2 0 2 0 }
-- input { -6 3 }  output { -2 0 -2 0 }
-- input { 0 -5 }  output { 0 0 0 0 }
entry main (a: i32) (b: i32) : (i32, i32, i32, i32) =
  (a / b, a % b, a // b, a %% b)
