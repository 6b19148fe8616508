-- take and drop, including 0, the full length, and a count past the end (a slice failure).
-- ==
-- input { 2i64 [1, 2, 3, 4] }   output { [1, 2] [3, 4] }
-- input { 0i64 [1, 2, 3] }      output { empty([0]i32) [1, 2, 3] }
-- input { 3i64 [1, 2, 3] }      output { [1, 2, 3] empty([0]i32) }
-- input { 0i64 empty([0]i32) }  output { empty([0]i32) empty([0]i32) }
-- input { 5i64 [1, 2, 3] }      error: Index \[0:5\] out of bounds for array of shape \[3\]
entry main (k: i64) (xs: []i32) : ([]i32, []i32) =
  (take k xs, drop k xs)
