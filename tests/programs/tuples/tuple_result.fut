-- An entry returning a tuple of a scalar, an array and a nested tuple;
-- outputs are listed one component per line (nested tuples flattened).
-- ==
-- input { [1, 2, 3] }  output { 6i64 [2, 4, 6] 3 1 }
entry main (xs: []i32) : (i64, []i32, (i32, i32)) =
  (i64.i32 (reduce (+) 0 xs), map (* 2) xs, (last xs, head xs))
