-- drop past the end of the array is a slice failure.
-- ==
-- input { 1i64 [1, 2, 3] }   output { [2, 3] }
-- input { 4i64 [1, 2, 3] }   error: Index \[4:\] out of bounds for array of shape \[3\]
entry main (k: i64) (xs: []i32) : []i32 = drop k xs
