-- A slice update whose slice is out of bounds fails like a bad slice.
-- ==
-- input { [1, 2, 3, 4] 2i64 } output { [1, 2, 0, 0] }
-- input { [1, 2, 3, 4] 3i64 } error: Index \[3:5\] out of bounds for array of shape \[4\]\.[\s\S]*oob_slice_update\.fut:6:
entry main (xs: []i32) (i: i64) : []i32 =
  copy xs with [i:i+2] = replicate 2 0
