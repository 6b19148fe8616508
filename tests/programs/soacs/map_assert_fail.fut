-- An assert inside a map body.
-- ==
-- input { [1, 4, 9] }   output { [2, 5, 10] }
-- input { [1, -4, 9] }  error: Assertion is false: x >= 0
-- input { empty([0]i32) }  output { empty([0]i32) }
entry main (xs: []i32) : []i32 =
  map (\x -> assert (x >= 0) (x + 1)) xs
