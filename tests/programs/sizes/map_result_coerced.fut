-- A map's function whose result size is computed from the element but coerced to a
-- size known outside (`:> [3]i32`), and one that slices each row from a start known
-- outside: both give arrays of one size for every element.
-- ==
-- entry: windows
-- input { 3i64 [1, 2, 3, 4, 5] } output { [[1, 2, 3], [3, 4, 5], [5, 6, 7]] }
-- input { 4i64 [1, 2, 3, 4, 5] } error: Index \[3:6\] out of bounds

-- ==
-- entry: row_tails
-- input { 1i64 [[1, 2, 3], [4, 5, 6]] } output { [[2, 3], [5, 6]] }
-- input { 4i64 [[1, 2, 3], [4, 5, 6]] } error: out of bounds

entry windows (n: i64) (xs: []i32) : [n][3]i32 =
  tabulate n (\i -> let ys = xs[i:i + 3] :> [3]i32 in map (+ i32.i64 i) ys)

entry row_tails [n][m] (s: i64) (xss: [n][m]i32) : [][]i32 =
  map (\row -> row[s:]) xss
