-- filter keeps the order of the kept elements; no match, all match and empty input.
-- ==
-- input { [5, -2, 8, 0, -7, 3] }  output { [5, 8, 3] [-2, 8, 0] }
-- input { [-1, -2] }             output { empty([0]i32) [-2] }
-- input { [2, 4] }               output { [2, 4] [2, 4] }
-- input { empty([0]i32) }        output { empty([0]i32) empty([0]i32) }
entry main (xs: []i32) : ([]i32, []i32) =
  (filter (> 0) xs, filter (\x -> x % 2 == 0) xs)
