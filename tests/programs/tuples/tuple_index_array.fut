-- Indexing an array of tuples gives a tuple; updating one element of an array of tuples.
-- ==
-- input { [1, 2, 3] [true, false, true] 1i64 }  output { 2 false [1, 0, 3] [true, true, true] }
-- input { [1, 2, 3] [true, false, true] 3i64 }  error: Index \[3\] out of bounds for array of shape \[3\]
entry main [n] (xs: [n]i32) (bs: [n]bool) (i: i64) : (i32, bool, [n]i32, [n]bool) =
  let ps = zip xs bs
  let (x, b) = ps[i]
  let qs = copy ps
  let qs[i] = (0, true)
  let (ys, cs) = unzip qs
  in (x, b, ys, cs)
