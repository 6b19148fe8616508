-- flatten followed by unflatten restores a matrix; unflatten of iota (n*m) infers n and m.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] 2i64 3i64 }
-- output { [[1, 2], [3, 4], [5, 6]] [[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]] }
-- input { empty([0][2]i32) 1i64 0i64 }
-- output { empty([0][2]i32) empty([1][0]i64) }
entry main [n][m] (xss: [n][m]i32) (a: i64) (b: i64) : ([n][m]i32, [a][b]i64) =
  (unflatten (flatten xss), unflatten (iota (a * b)))
