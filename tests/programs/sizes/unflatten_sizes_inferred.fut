-- unflatten and split with no sizes given: the sizes come from the argument's size, a
-- product or a sum (flatten's result, `sized` and `take` of a size expression, an
-- array concatenated), as Futhark infers them; Kerb passes them explicitly (infer.cpp,
-- Note [Sizes given by the context]).
-- ==
-- entry: rows
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[1, 4], [2, 5], [3, 6]] }
-- input { empty([0][2]i32) } output { empty([2][0]i32) }
-- ==
-- entry: segments
-- input { 2i64 3i64 [1, 2, 3, 4, 5, 6] } output { [6, 15] }
-- input { 2i64 2i64 [1, 2, 3] }
-- error: cannot match shape of type "\[4\]i32"
-- ==
-- entry: taken
-- input { 2i64 2i64 [1, 2, 3, 4, 5] } output { [[1, 2], [3, 4]] }
-- input { 2i64 3i64 [1, 2, 3, 4, 5] } error: Index \[0:6\] out of bounds for array of shape \[5\]
-- ==
-- entry: halves
-- input { [1, 2] [3, 4, 5] } output { [1, 2] [3, 4, 5] 3i64 }
entry rows [n][m] (xss: [n][m]i32) : [m][n]i32 = transpose (unflatten (flatten xss))

entry segments (n: i64) (m: i64) (xs: []i32) : [n]i32 = unflatten (sized (n * m) xs) |> map i32.sum

entry taken (a: i64) (b: i64) (xs: []i32) : [a][b]i32 = unflatten (take (a * b) xs)

entry halves [n][m] (xs: [n]i32) (ys: [m]i32) : ([n]i32, [m]i32, i64) =
  let (a, b) = split (xs ++ ys)
  in (a, b, length b)
