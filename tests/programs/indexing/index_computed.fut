-- Index expressions computed from other array elements (gather through an index array).
-- ==
-- input { [10, 20, 30] [2i64, 0i64, 1i64, 2i64] } output { [30, 10, 20, 30] 30 }
-- input { [7] [0i64] } output { [7] 7 }
entry main (xs: []i32) (is: []i64) : ([]i32, i32) =
  (map (\i -> xs[i]) is, xs[is[length is - 1]])
