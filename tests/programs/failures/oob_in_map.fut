-- An out-of-bounds gather inside a map lambda.
-- ==
-- input { [10, 20, 30] [0i64, 2i64] } output { [10, 30] }
-- input { [10, 20, 30] [0i64, 3i64, 1i64] } error: Index \[3\] out of bounds for array of shape \[3\]\.[\s\S]*oob_in_map\.fut:7:
-- input { [10, 20, 30] [-5i64] } error: Index \[-5\] out of bounds for array of shape \[3\]
entry main (xs: []i32) (is: []i64) : []i32 =
  map (\i -> xs[i]) is
