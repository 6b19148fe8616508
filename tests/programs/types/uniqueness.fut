-- Unique parameter and return types (*[]i32) are accepted; the update consumes the argument.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3, 0] [0, 2, 3] }
def zero_first (xs: *[]i32) : *[]i32 = xs with [0] = 0
entry main (xs: []i32) : ([]i32, []i32) =
  (xs ++ [0], zero_first (copy xs))
