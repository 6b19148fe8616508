-- A rank-2 slice out of bounds in the second dimension; the message shows both dimensions.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 2i64 } output { [[2, 3], [5, 6]] }
-- input { [[1, 2, 3], [4, 5, 6]] 4i64 } error: Index \[0:2, 1:5\] out of bounds for array of shape \[2\]\[3\]\.[\s\S]*bad_slice_2d\.fut:6:
entry main (a: [][]i32) (k: i64) : [][]i32 =
  a[0:2, 1:k+1]
