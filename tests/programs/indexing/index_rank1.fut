-- Indexing a rank-1 array with constant and computed indices, first and last element.
-- ==
-- input { [10, 20, 30, 40] 2i64 } output { 10 40 30 20 }
-- input { [5] 0i64 } output { 5 5 5 5 }
entry main (xs: []i32) (i: i64) : (i32, i32, i32, i32) =
  (xs[0], xs[length xs - 1], xs[i], xs[i / 2])
