-- map returning a tuple: the result is an array of tuples, listed as its component arrays.
-- ==
-- input { [3, -4, 0] }  output { [3, 4, 0] [true, false, true] }
-- input { empty([0]i32) }  output { empty([0]i32) empty([0]bool) }
entry main (xs: []i32) : [](i32, bool) =
  map (\x -> (i32.abs x, x >= 0)) xs
