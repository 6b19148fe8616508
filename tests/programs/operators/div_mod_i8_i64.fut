-- Division and remainder on i8 and i64, negative operands and the extremes.
-- ==
-- input { -128i8 3i8 -9000000000i64 7i64 }
-- output { -43i8 1i8 -42i8 -2i8 -1285714286i64 2i64 -1285714285i64 -5i64 }
-- input { 127i8 -10i8 9000000000i64 -7i64 }
-- output { -13i8 -3i8 -12i8 7i8 -1285714286i64 -2i64 -1285714285i64 5i64 }
entry main (a: i8) (b: i8) (c: i64) (d: i64) : (i8, i8, i8, i8, i64, i64, i64, i64) =
  (a / b, a % b, a // b, a %% b, c / d, c % d, c // d, c %% d)
