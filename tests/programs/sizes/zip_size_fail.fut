-- zip of arrays of different lengths through a coercion fails with a size error.
-- ==
-- input { [1, 2] [true, false] }   output { [1, 2] [true, false] }
-- input { [1, 2] [true] }          error: cannot match shape of type
-- input { empty([0]i32) [true] }   error: cannot match shape of type
entry main [n][m] (xs: [n]i32) (bs: [m]bool) : [n](i32, bool) =
  zip xs (bs :> [n]bool)
