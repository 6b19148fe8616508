-- A parameter named only in a size of a coercion or of the return type is an i64: the
-- sizes give it its type (no annotation needed), and a coercion to a wrong size fails.
-- ==
-- input { 4i64 [1, 2] [3, 4] } output { [1, 2, 3, 4] [0i64, 1i64, 2i64, 3i64] }
-- input { 3i64 [1, 2] [3, 4] } error: shape \[4\] cannot match shape of type "\[3\]i32"

def firsts k : [k]i64 = iota k

entry main n xs ys =
  (xs ++ ys :> [n]i32, firsts n)
