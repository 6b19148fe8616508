-- partition returns the elements satisfying the predicate and the rest, both in their
-- original order.
-- ==
-- input { [4, 7, 1, 8, 2, 9] }  output { [4, 1, 2] [7, 8, 9] }
-- input { [1, 2, 3] }           output { [1, 2, 3] empty([0]i32) }
-- input { [10, 20] }            output { empty([0]i32) [10, 20] }
-- input { empty([0]i32) }       output { empty([0]i32) empty([0]i32) }
entry main (xs: []i32) : ([]i32, []i32) =
  partition (\x -> x < 5) xs
