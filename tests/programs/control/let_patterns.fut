-- let with tuple patterns, nested tuple patterns and the wildcard _.
-- ==
-- input { 3 4 } output { 7 -1 12 4 3 }
-- input { -2 0 } output { -2 -2 0 0 -2 }
entry main (a: i32) (b: i32) : (i32, i32, i32, i32, i32) =
  let (s, d) = (a + b, a - b)
  let (_, p) = (s * 100, a * b)
  let ((x, _), y) = ((b, a), a)
  in (s, d, p, x, y)
