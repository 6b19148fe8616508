-- An inclusive range inside a loop body that becomes invalid on a later iteration.
-- ==
-- input { 3 5 } output { 15 }
-- input { 0 -7 } output { 0 }
-- input { 3 1 } error: Range 2\.\.\.1 is invalid\.[\s\S]*range_in_loop\.fut:8:
entry main (n: i32) (m: i32) : i32 =
  loop acc = 0 for i < n do
    acc + i32.i64 (length (i...m))
