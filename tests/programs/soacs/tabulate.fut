-- tabulate n f = map f (iota n); also nested tabulate for a rank-2 result.
-- ==
-- input { 4i64 }  output { [0i64, 1i64, 4i64, 9i64] [[0i64, 1i64, 2i64, 3i64], [1i64, 2i64, 3i64, 4i64], [2i64, 3i64, 4i64, 5i64], [3i64, 4i64, 5i64, 6i64]] }
-- input { 1i64 }  output { [0i64] [[0i64]] }
-- input { 0i64 }  output { empty([0]i64) empty([0][0]i64) }
entry main (n: i64) : ([]i64, [][]i64) =
  (tabulate n (\i -> i * i), tabulate n (\i -> tabulate n (\j -> i + j)))
