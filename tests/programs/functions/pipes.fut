-- Forward |> and backward <| pipes, chained and mixed with partial application.
-- ==
-- input { [1, 2, 3, 4] }  output { 20 20 [2, 4, 6, 8] }
-- input { empty([0]i32) } output { 0 0 empty([0]i32) }
def double (x: i32) : i32 = x * 2

entry main (xs: []i32) : (i32, i32, []i32) =
  ( xs |> map double |> reduce (+) 0
  , reduce (+) 0 <| map double <| xs
  , map double <| xs )
