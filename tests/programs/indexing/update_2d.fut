-- In-place updates of an element and of a whole row of a rank-2 array.
-- ==
-- input { [[1, 2], [3, 4]] 1i64 0i64 } output { [[1, 2], [0, 4]] [[1, 2], [7, 8]] }
-- input { [[1, 2], [3, 4]] 0i64 1i64 } output { [[1, 0], [3, 4]] [[7, 8], [3, 4]] }
entry main (a: [][2]i32) (i: i64) (j: i64) : ([][2]i32, [][2]i32) =
  (copy a with [i, j] = 0, copy a with [i] = [7, 8])
