-- An out-of-bounds index inside a map body is a failure at the index expression.
-- ==
-- input { [10, 20, 30] [2, 0, 1] }  output { [30, 10, 20] }
-- input { [10, 20, 30] [0, 3, 1] }  error: Index \[3\] out of bounds for array of shape \[3\]
-- input { [10, 20, 30] [-1] }       error: Index \[-1\] out of bounds for array of shape \[3\]
-- input { empty([0]i32) [0] }       error: map_index_fail\.fut:8:
entry main (xs: []i32) (is: []i64) : []i32 =
  map (\i -> xs[i]) is
