-- A failure in the first operation of a chain (gather map, then scan, then reduce)
-- is reported at that first operation.
-- ==
-- input { [5, 1, 4] [2i64, 2i64, 0i64] }  output { [4, 8, 13] 13 }
-- input { [5, 1, 4] [2i64, 5i64, 0i64] }  error: Index \[5\] out of bounds for array of shape \[3\]
-- input { [5, 1, 4] [2i64, 5i64, 0i64] }  error: chain_fail\.fut:8:
entry main (xs: []i32) (is: []i64) : ([]i32, i32) =
  let gathered = map (\i -> xs[i]) is
  let sums = scan (+) 0 gathered
  in (sums, reduce i32.max i32.lowest sums)
