-- Empty slices are always in bounds: i:i anywhere up to the length, and a backwards empty slice.
-- ==
-- input { [1, 2, 3] 3i64 } output { 0i64 0i64 0i64 }
-- input { [1, 2, 3] 0i64 } output { 0i64 0i64 0i64 }
-- input { empty([0]i32) 0i64 } output { 0i64 0i64 0i64 }
entry main (xs: []i32) (i: i64) : (i64, i64, i64) =
  (length xs[i:i], length xs[i:i:2], length xs[i:i:-1])
