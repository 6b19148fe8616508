-- copy makes an independent array: updating the copy leaves the original unchanged.
-- ==
-- input { [1, 2, 3] 1i64 }  output { [1, 2, 3] [1, 99, 3] }
-- input { [1, 2, 3] 3i64 }  error: Index \[3\] out of bounds for array of shape \[3\]
entry main (xs: []i32) (i: i64) : ([]i32, []i32) =
  let ys = copy xs
  let ys[i] = 99
  in (xs, ys)
