-- Inclusive scans with (+), (*), i32.max and an anonymous function.
-- ==
-- input { [1, 2, 3, 4] }     output { [1, 3, 6, 10] [1, 2, 6, 24] [1, 2, 3, 4] [1, 2, 3, 4] }
-- input { [3, -1, 5, 2] }    output { [3, 2, 7, 9] [3, -3, -15, -30] [3, 3, 5, 5] [3, 3, 5, 5] }
-- input { [42] }             output { [42] [42] [42] [42] }
-- input { empty([0]i32) }    output { empty([0]i32) empty([0]i32) empty([0]i32) empty([0]i32) }
entry main [n] (xs: [n]i32) : ([n]i32, [n]i32, [n]i32, [n]i32) =
  ( scan (+) 0 xs
  , scan (*) 1 xs
  , scan i32.max i32.lowest xs
  , scan (\a b -> if a > b then a else b) i32.lowest xs )
