-- A failure inside a helper function is reported at the failing expression in that function.
-- ==
-- input { [1, 2, 3] 1i64 } output { 5 }
-- input { [1, 2, 3] 2i64 } error: Index \[3\] out of bounds for array of shape \[3\]\.[\s\S]*oob_in_function\.fut:6:
def pair_sum (xs: []i32) (i: i64) : i32 =
  xs[i] + xs[i + 1]
entry main (xs: []i32) (i: i64) : i32 =
  pair_sum xs i
