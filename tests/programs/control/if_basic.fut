-- if-then-else as an expression, nested and chained with else if.
-- ==
-- input { -5 } output { -1 5 0 }
-- input { 0 }  output { 0 0 1 }
-- input { 7 }  output { 1 7 2 }
-- input { 100 } output { 1 100 3 }
entry main (x: i32) : (i32, i32, i32) =
  let sign = if x < 0 then -1 else if x == 0 then 0 else 1
  let ab = if x < 0 then -x else x
  let bucket = if x < 0 then 0 else if x < 5 then 1 else if x < 50 then 2 else 3
  in (sign, ab, bucket)
