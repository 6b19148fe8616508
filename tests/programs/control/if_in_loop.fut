-- if inside a loop body and a loop inside an if branch.
-- ==
-- input { [1, -2, 3, -4, 5] true } output { 9 -6 }
-- input { [1, -2, 3, -4, 5] false } output { 9 0 }
-- input { empty([0]i32) true } output { 0 0 }
entry main (xs: []i32) (b: bool) : (i32, i32) =
  let pos = loop acc = 0 for x in xs do if x > 0 then acc + x else acc
  let neg = if b then (loop acc = 0 for x in xs do if x < 0 then acc + x else acc) else 0
  in (pos, neg)
