-- In-place updates out of bounds fail with the index message (both update forms).
-- ==
-- input { [1, 2, 3] 0i64 } output { [9, 2, 3] [8, 2, 3] }
-- input { [1, 2, 3] 3i64 } error: Index \[3\] out of bounds for array of shape \[3\]\.[\s\S]*oob_update\.fut:7:
-- input { [1, 2, 3] -1i64 } error: Index \[-1\] out of bounds for array of shape \[3\]
entry main (xs: []i32) (i: i64) : ([]i32, []i32) =
  let a = copy xs with [i] = 9
  let b = copy xs
  let b[i] = 8
  in (a, b)
