-- concat and ++ on rank 1 and rank 2 arrays, with empty operands.
-- ==
-- input { [1, 2] [3, 4, 5] }     output { [1, 2, 3, 4, 5] [3, 4, 5, 1, 2] [1, 2, 1, 2, 3, 4, 5] }
-- input { empty([0]i32) [7] }    output { [7] [7] [7] }
-- input { empty([0]i32) empty([0]i32) }  output { empty([0]i32) empty([0]i32) empty([0]i32) }
entry main (xs: []i32) (ys: []i32) : ([]i32, []i32, []i32) =
  (concat xs ys, ys ++ xs, xs ++ xs ++ ys)
