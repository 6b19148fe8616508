-- for-in over iota and over a 2-D array's rows, accumulating a tuple.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { 21 15 }
-- input { [[7]] } output { 7 0 }
entry main (m: [][]i32) : (i32, i32) =
  loop (total, weighted) = (0, 0) for i in iota (length m) do
    let row = m[i]
    let s = loop s = 0 for x in row do s + x
    in (total + s, weighted + s * i32.i64 i)
