-- Updating a column a[:, j] and a sub-matrix of a rank-2 array.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 2i64 } output { [[1, 2, 0], [4, 5, 0]] [[9, 9, 3], [4, 5, 6]] }
-- input { [[1, 2, 3], [4, 5, 6]] 0i64 } output { [[0, 2, 3], [0, 5, 6]] [[9, 9, 3], [4, 5, 6]] }
entry main (a: [2][3]i32) (j: i64) : ([2][3]i32, [2][3]i32) =
  (copy a with [:, j] = [0, 0], copy a with [0:1, 0:2] = map (map (\_ -> 9)) a[0:1, 0:2])
