-- In-place update of a rank-2 element out of bounds in the second dimension.
-- ==
-- input { [[1, 2], [3, 4]] 1i64 1i64 } output { [[1, 2], [3, 0]] }
-- input { [[1, 2], [3, 4]] 1i64 2i64 } error: Index \[1, 2\] out of bounds for array of shape \[2\]\[2\]\.[\s\S]*oob_update_2d\.fut:6:
entry main (a: [][]i32) (i: i64) (j: i64) : [][]i32 =
  copy a with [i, j] = 0
