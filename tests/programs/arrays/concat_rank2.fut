-- ++ on the outer dimension of rank-2 arrays, and rows concatenated with map2.
-- ==
-- input { [[1, 2], [3, 4]] [[5, 6]] }
-- output { [[1, 2], [3, 4], [5, 6]] [[1, 2, 1, 2], [3, 4, 3, 4]] }
entry main [n][m][k] (a: [n][k]i32) (b: [m][k]i32) : ([][k]i32, [n][]i32) =
  (a ++ b, map2 (\x y -> x ++ y) a a)
