-- if with array-valued branches of different lengths.
-- ==
-- input { true [1, 2, 3] }  output { [2, 4, 6] }
-- input { false [1, 2, 3] } output { [3, 2, 1, 0] }
-- input { false empty([0]i32) } output { [0] }
entry main (b: bool) (xs: []i32) : []i32 =
  if b then map (* 2) xs else reverse xs ++ [0]
