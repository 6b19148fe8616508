-- Coercion to a constant size: [3]i32 succeeds only for arrays of length 3.
-- ==
-- input { [4, 5, 6] }  output { 15 }
-- input { [4, 5] }     error: cannot match shape of type
-- input { empty([0]i32) } error: cannot match shape of type
entry main (xs: []i32) : i32 =
  let ys = xs :> [3]i32
  in ys[0] + ys[1] + ys[2]
