-- map2 with an anonymous function of two parameters over arrays of different types.
-- ==
-- input { [1, 2, 3] [true, false, true] }  output { [1, 0, 3] }
-- input { [9] [false] }                    output { [0] }
-- input { empty([0]i32) empty([0]bool) }   output { empty([0]i32) }
entry main [n] (xs: [n]i32) (bs: [n]bool) : [n]i32 =
  map2 (\x b -> if b then x else 0) xs bs
