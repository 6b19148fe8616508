-- Pipes into anonymous functions and into partially applied SOACs on rank-2 arrays.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] }  output { [3, 7, 11] 21 [[1, 3, 5], [2, 4, 6]] }
entry main (xss: [][]i32) : ([]i32, i32, [][]i32) =
  let rs = xss |> map (\r -> reduce (+) 0 r)
  in (rs, rs |> (\ys -> reduce (+) 0 ys), xss |> transpose)
