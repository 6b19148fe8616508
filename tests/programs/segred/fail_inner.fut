-- A failing index inside the map fused into a segmented reduction (one element of one
-- segment fails), in the statements before the reduction (one segment's), and a
-- division by zero in the statements after it: the interpreter's message and location.
-- ==
-- input { 4i64 50000i64 -1i64 0i64 1i64 } output { [225000i64, 225000i64, 225001i64, 225000i64] }
-- input { 4i64 50000i64 30000i64 0i64 1i64 }
-- error: Index \[50003\] out of bounds for array of shape \[50000\][\s\S]*fail_inner\.fut:16:46-88
-- input { 4i64 50000i64 -1i64 50002i64 1i64 }
-- error: Index \[50002\] out of bounds for array of shape \[50000\][\s\S]*fail_inner\.fut:15:21-48
-- input { 4i64 50000i64 -1i64 0i64 0i64 }
-- error: division by zero[\s\S]*fail_inner\.fut:17:20-47
entry main (n: i64) (m: i64) (bad: i64) (at: i64) (d: i64) : []i64 =
  let xs = map (\i -> i % 10) (iota m)
  in map (\j ->
            let k = xs[if j == 3 then at else 1]
            let s = reduce (+) 0 (map (\i -> xs[if i == bad && j == 1 then m + 3 else i]) (iota m))
            in s + k / (if j == 2 then d else 1) - (if j == 2 then 0 else k))
         (iota n)
