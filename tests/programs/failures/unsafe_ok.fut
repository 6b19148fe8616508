-- #[unsafe] on expressions whose checks all pass changes nothing.
-- ==
-- input { [1, 2, 3] 2i64 } output { 3 [2, 3] 3 }
-- input { [4] 0i64 } output { 4 empty([0]i32) 6 }
entry main (xs: []i32) (i: i64) : (i32, []i32, i32) =
  (#[unsafe] xs[i], #[unsafe] xs[1:], #[unsafe] (xs[0] + 2) / 1 + (#[unsafe] xs[i]) * 0)
