-- scatter writes values at indices; indices out of range (negative or too large) are ignored.
-- ==
-- input { [0, 0, 0, 0] [2i64, 0i64] [5, 6] }           output { [6, 0, 5, 0] }
-- input { [1, 2, 3] [-1i64, 3i64, 1i64, 100i64] [7, 8, 9, 10] }  output { [1, 9, 3] }
-- input { [1, 2, 3] empty([0]i64) empty([0]i32) }       output { [1, 2, 3] }
-- input { empty([0]i32) [0i64] [4] }                     output { empty([0]i32) }
entry main [k][n] (dest: *[k]i32) (is: [n]i64) (vs: [n]i32) : [k]i32 =
  scatter dest is vs
