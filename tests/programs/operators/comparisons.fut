-- All six comparison operators on i32 and f64 (incl. 0.0 == -0.0); comparisons are left-associative.
-- ==
-- input { 1 2 1.5f64 1.5f64 } output { true true false false true false true true false true }
-- input { 2 2 -0.5f64 2.0f64 } output { false true false true false true false true true true }
-- input { 3 -2 0.0f64 -0.0f64 } output { false false true true true false true true false true }
entry main (a: i32) (b: i32) (x: f64) (y: f64)
  : (bool, bool, bool, bool, bool, bool, bool, bool, bool, bool) =
  (a < b, a <= b, a > b, a >= b, x == y, x != y, x >= y, a < b == (a < b), x < y, true == !false)
