-- && and || short-circuit: the right operand is not evaluated (so its index cannot fail).
-- ==
-- input { [1, 2, 3] 3i64 } output { false true 0 }
-- input { [1, -2, 3] 1i64 } output { false true 1 }
-- input { [5] 0i64 } output { true false 1 }
-- input { empty([0]i32) 0i64 } output { false true 0 }
entry main (xs: []i32) (i: i64) : (bool, bool, i32) =
  let ok = i < length xs && xs[i] > 0
  let bad = i >= length xs || xs[i] < 0
  let cnt = if i < length xs && xs[i] != 0 then 1 else 0
  in (ok, bad, cnt)
