-- Sizes given by a top-level constant, and a size expression in an earlier parameter's
-- type of a size parameter that a later parameter gives.
-- ==
-- entry: constant
-- input { [1, 2, 3] } output { [2, 3, 4] [0i64, 1i64, 2i64] }
-- input { [1, 2] } error: invalid sizes
-- ==
-- entry: doubled
-- input { [1, 2] [3] } output { [1, 2, 3] }

def k : i64 = 1 + 2

entry constant (xs: [k]i32) : ([k]i32, [k]i64) = (map (+ 1) xs, iota k)

entry doubled [n] (xs: [n * 2]i32) (ys: [n]i32) = xs ++ ys
