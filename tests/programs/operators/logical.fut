-- && binds tighter than ||; ! negates booleans; both are left-associative.
-- ==
-- input { true false false } output { true false false false true }
-- input { false true true }  output { true true true false false }
-- input { false false true } output { false false true false true }
entry main (a: bool) (b: bool) (c: bool) : (bool, bool, bool, bool, bool) =
  (a || b && c, (a || b) && c, !a && !b || c, !(a || c), a == b || !b)
