-- An out-of-bounds index deep inside an arithmetic expression inside an if branch.
-- ==
-- input { [5, 6, 7] 1i64 true } output { 26 }
-- input { [5, 6, 7] 2i64 true } error: Index \[3\] out of bounds for array of shape \[3\]\.[\s\S]*oob_nested_expr\.fut:7:
-- input { [5, 6, 7] 2i64 false } output { 0 }
entry main (xs: []i32) (i: i64) (b: bool) : i32 =
  if b then 2 * (xs[i - 1] + (1 + xs[i + 1])) else 0
