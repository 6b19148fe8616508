-- Slices with start and end, with only one of them, and with neither.
-- ==
-- input { [1, 2, 3, 4, 5] 1i64 3i64 } output { [2, 3] [1, 2, 3] [2, 3, 4, 5] [1, 2, 3, 4, 5] }
-- input { [1, 2, 3, 4, 5] 2i64 2i64 } output { empty([0]i32) [1, 2] [3, 4, 5] [1, 2, 3, 4, 5] }
-- input { [1, 2, 3, 4, 5] 0i64 5i64 } output { [1, 2, 3, 4, 5] [1, 2, 3, 4, 5] [1, 2, 3, 4, 5] [1, 2, 3, 4, 5] }
entry main (xs: []i32) (i: i64) (j: i64) : ([]i32, []i32, []i32, []i32) =
  (xs[i:j], xs[:j], xs[i:], xs[:])
