-- Slice updates: a with [i:j] = b and a strided slice update.
-- ==
-- input { [1, 2, 3, 4, 5] 1i64 } output { [1, 0, 0, 4, 5] [-1, 2, -1, 4, -1] }
-- input { [1, 2, 3, 4, 5] 3i64 } output { [1, 2, 3, 0, 0] [-1, 2, -1, 4, -1] }
entry main (xs: []i32) (i: i64) : ([]i32, []i32) =
  (copy xs with [i:i+2] = map (* 0) xs[i:i+2], copy xs with [::2] = map (\_ -> -1) xs[::2])
