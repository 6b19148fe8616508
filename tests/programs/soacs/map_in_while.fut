-- A while loop whose condition uses any and whose body maps over the array,
-- counting the rounds of halving until every element is below the threshold.
-- ==
-- input { [100, 7, 33] 10 }  output { [6, 0, 2] 4 }
-- input { [1, 2] 10 }        output { [1, 2] 0 }
-- input { empty([0]i32) 1 }  output { empty([0]i32) 0 }
entry main (xs: []i32) (t: i32) : ([]i32, i32) =
  loop (ys, rounds) = (xs, 0) while any (>= t) ys do
    (map (\y -> y / 2) ys, rounds + 1)
