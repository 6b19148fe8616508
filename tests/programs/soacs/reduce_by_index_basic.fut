-- reduce_by_index (dest op ne is vs) combines into the existing bins; out-of-range
-- indices are ignored.
-- ==
-- input { [0, 0, 0] [0i64, 2i64, 0i64, 1i64, 0i64] [1, 2, 3, 4, 5] }  output { [9, 4, 2] [5, 4, 2] }
-- input { [10, 20] [1i64, -1i64, 2i64, 1i64] [1, 2, 3, 4] }             output { [10, 25] [10, 20] }
-- input { [1, 2] empty([0]i64) empty([0]i32) }                          output { [1, 2] [1, 2] }
entry main [k][n] (dest: [k]i32) (is: [n]i64) (vs: [n]i32) : ([k]i32, [k]i32) =
  (reduce_by_index (copy dest) (+) 0 is vs, reduce_by_index (copy dest) i32.max i32.lowest is vs)
