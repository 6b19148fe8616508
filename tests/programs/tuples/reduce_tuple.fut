-- reduce over an array of tuples computing min, max and sum at once.
-- ==
-- input { [4, -2, 9, 0] }  output { -2 9 11 }
-- input { empty([0]i32) }  output { 2147483647 -2147483648 0 }
entry main (xs: []i32) : (i32, i32, i32) =
  reduce (\(a, b, c) (x, y, z) -> (i32.min a x, i32.max b y, c + z))
         (i32.highest, i32.lowest, 0)
         (map (\x -> (x, x, x)) xs)
