-- Empty arrays as input and output, and the length of an empty array.
-- ==
-- input { empty([0]i32) } output { 0i64 empty([0]i32) }
-- input { [7] } output { 1i64 [8] }
entry main (xs: []i32) : (i64, []i32) =
  (length xs, map (+ 1) xs)
