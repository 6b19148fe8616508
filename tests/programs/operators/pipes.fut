-- |> and <| apply a function; |> binds looser than arithmetic and comparison.
-- ==
-- input { [1, 2, 3] } output { 18 [3, 5, 7] 6 true }
-- input { empty([0]i32) } output { 0 empty([0]i32) 0 false }
def double (x: i32) : i32 = x * 2
entry main (xs: []i32) : (i32, []i32, i32, bool) =
  (xs |> map (+ 1) |> reduce (+) 0 |> double,
   map (\x -> 2 * x + 1) <| xs,
   reduce (+) 0 <| xs,
   (length xs + 1 |> i32.i64 |> double) > 2)
