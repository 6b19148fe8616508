-- The size of a filter result is only known at run time; it can be named by a
-- size parameter of a called function and compared with a coercion.
-- ==
-- input { [1, -2, 3, -4] }  output { 2i64 [2, 6] }
-- input { [1, 2, 3] }       output { 3i64 [2, 4, 6] }
def double_all [k] (xs: [k]i32) : (i64, [k]i32) = (k, map (* 2) xs)

entry main (xs: []i32) : (i64, []i32) =
  double_all (filter (> 0) xs)
