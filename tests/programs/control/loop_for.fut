-- for loops: sum of 0..n-1, with zero iterations, and an i64 bound.
-- ==
-- input { 10 } output { 45 3628800i64 }
-- input { 0 }  output { 0 1i64 }
-- input { 1 }  output { 0 1i64 }
entry main (n: i32) : (i32, i64) =
  let s = loop acc = 0 for i < n do acc + i
  let f = loop acc = 1i64 for i < i64.i32 n do acc * (i + 1)
  in (s, f)
