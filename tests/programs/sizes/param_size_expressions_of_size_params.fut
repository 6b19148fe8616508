-- A size expression of a size parameter in a function's parameter type, checked at the
-- call (on every device: the sizes are bound from all the parameters before any is checked).
-- ==
-- input { [1, 2, 3] }  output { [1, 2, 3] }
-- input { [1] }  error: Index \[0:3\] out of bounds for array of shape \[1\]

def halves [k] (xs: [k * 2]i32) (_: [k]bool) : [k]i32 = xs[0:k]

entry main [n] (xs: [n]i32) = halves (xs ++ xs :> [n * 2]i32) (replicate n true) |> take 3
