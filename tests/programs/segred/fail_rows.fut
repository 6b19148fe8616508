-- Failures in a segmented reduction across rows (the matrix read with the segment as
-- its last index): a failing index inside the map fused into the reduction (one row of
-- one segment; the first row, the last), in the statements before the reduction (one
-- segment's), and a division by zero in the statements after it: the interpreter's
-- message and location.
-- ==
-- input { 4i64 50000i64 -1i64 0i64 1i64 } output { [250001i64, 250005i64, 249999i64, 250002i64] }
-- input { 4i64 50000i64 30000i64 0i64 1i64 }
-- error: Index \[50003, 1\] out of bounds for array of shape \[50000\]\[4\][\s\S]*fail_rows\.fut:23:46-90
-- input { 4i64 50000i64 0i64 0i64 1i64 }
-- error: Index \[50003, 1\] out of bounds for array of shape \[50000\]\[4\][\s\S]*fail_rows\.fut:23:46-90
-- input { 4i64 50000i64 49999i64 0i64 1i64 }
-- error: Index \[50003, 1\] out of bounds for array of shape \[50000\]\[4\][\s\S]*fail_rows\.fut:23:46-90
-- input { 4i64 50000i64 -1i64 50002i64 1i64 }
-- error: Index \[50002\] out of bounds for array of shape \[50000\][\s\S]*fail_rows\.fut:22:21-48
-- input { 4i64 50000i64 -1i64 0i64 0i64 }
-- error: division by zero[\s\S]*fail_rows\.fut:24:20-47
entry main (n: i64) (m: i64) (bad: i64) (at: i64) (d: i64) : []i64 =
  let w = map (\i -> map (\j -> (i * 7 + j * 3) % 11) (iota n)) (iota m)
  let xs = map (\i -> i % 10) (iota m)
  in map (\j ->
            let k = xs[if j == 3 then at else 1]
            let s = reduce (+) 0 (map (\i -> w[if i == bad && j == 1 then m + 3 else i, j]) (iota m))
            in s + k / (if j == 2 then d else 1) - (if j == 2 then 0 else k))
         (iota n)
