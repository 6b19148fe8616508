-- head, last, tail and init on arrays of length >= 1.
-- ==
-- input { [4, 5, 6, 7] }  output { 4 7 [5, 6, 7] [4, 5, 6] }
-- input { [9] }           output { 9 9 empty([0]i32) empty([0]i32) }
entry main (xs: []i32) : (i32, i32, []i32, []i32) =
  (head xs, last xs, tail xs, init xs)
