-- partition of an array of tuples with a tuple-pattern predicate.
-- ==
-- input { [1, 2, 3, 4] [true, false, false, true] }
-- output { [1, 4] [true, true] [2, 3] [false, false] }
entry main [n] (xs: [n]i32) (bs: [n]bool) : ([]i32, []bool, []i32, []bool) =
  let (yes, no) = partition (\(_, b) -> b) (zip xs bs)
  let (a, b) = unzip yes
  let (c, d) = unzip no
  in (a, b, c, d)
