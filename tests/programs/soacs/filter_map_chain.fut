-- Pipelines of SOACs: map, filter, scan and reduce chained with |>.
-- ==
-- input { [3, 8, -2, 7, 10, 1] }  output { [9, 49, 1] [9, 58, 59] 59 }
-- input { [2, 4] }                output { empty([0]i32) empty([0]i32) 0 }
entry main (xs: []i32) : ([]i32, []i32, i32) =
  let odds = xs |> filter (\x -> x % 2 != 0) |> map (\x -> x * x)
  let sums = odds |> scan (+) 0
  in (odds, sums, odds |> reduce (+) 0)
