-- flatmap builds its result in a loop whose array grows (a loop size parameter in the
-- core IR: Note [Loops whose arrays change size] in compiler/lower_to_core.cpp).
-- ==
-- input { [1i64, 0i64, 2i64] }
-- output { [1i64, 0i64, 2i64] [true, true, false] [0i64, 1i64, 1i64] [2, 3, 3] [1i64, 0i64, 2i64] }

entry main (ks: []i64) = flatmap (\k -> (replicate k (i32.i64 k + 1), k)) ks

-- Elements that are arrays: the data is rows, and the first element may give none.
-- ==
-- entry: rows
-- input { [0i64, 1i64, 2i64] [[1, 2, 3], [4, 5, 6], [7, 8, 9]] }
-- output { [0i64, 1i64, 2i64] [true, true, false] [0i64, 0i64, 1i64]
--          [[4, 5, 6], [7, 8, 9], [7, 8, 9]] [6, 15, 24] }

entry rows [n] (ks: [n]i64) (xss: [n][]i32) =
  flatmap (\(k, xs) -> (replicate k xs, i32.sum xs)) (zip ks xss)
