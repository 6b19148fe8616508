-- Guards written with && and || and if keep otherwise-failing expressions from running.
-- ==
-- input { 0 [1, 2] 5i64 } output { false 0 true }
-- input { 2 [1, 2] 1i64 } output { true 5 false }
entry main (d: i32) (xs: []i32) (i: i64) : (bool, i32, bool) =
  (d != 0 && 10 / d > 2, if d == 0 then 0 else 10 / d, i >= length xs || xs[i] == 0)
