-- A map whose function returns, from either branch of an `if`, an array of a size known
-- outside it: one branch a loop's result of the piece's size, the other a `take` of that
-- size (a slice from 0 to an array's size is of that size, as in Futhark), so that the
-- map's rows are of one size, as in merge sorts over pieces of a stride.
-- ==
-- entry: pieces
-- input { [5, 1, 4, 2, 8, 7, 3, 6] 2i64 }
-- output { [1, 5, 2, 4, 7, 8, 6, 3] }
-- input { [5, 1, 4, 2, 8, 7, 3, 6] 4i64 }
-- output { [5, 5, 1, 1, 8, 8, 7, 7] }
-- input { [3, 1] 1i64 } output { [3, 1] }
-- input { empty([0]i32) 3i64 } output { empty([0]i32) }
-- input { [1, 2, 3] 2i64 }
-- error: Index \[0:2\] out of bounds for array of shape \[1\]

-- Short pieces: reversed by a loop; longer ones: each element twice, the first n kept.
def piece [n] (s: [n]i32) : *[n]i32 =
  if n < 3 then loop out = replicate n 0 for k < n do out with [n - 1 - k] = s[k]
  else take n (flatten (map (\x -> [x, x]) s))

entry pieces (data: []i32) (stride: i64) : []i32 =
  let m = (length data + stride - 1) / stride
  in flatten (tabulate m (\mi -> piece (take stride (drop (mi * stride) data))))
