-- opaque is the identity on scalars, arrays and tuples.
-- ==
-- input { 5 [1, 2] }  output { 6 [1, 2] 5 true }
entry main (x: i32) (xs: []i32) : (i32, []i32, i32, bool) =
  let (a, b) = opaque (x, true)
  in (opaque x + 1, opaque xs, a, b)
