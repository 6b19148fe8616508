-- Size parameters of a let bind the lengths of the value: the first dimension of a
-- filtered array, a size shared by two components, the second dimension of an empty
-- matrix, and a size used afterwards in a type and as a value.
-- ==
-- input { [3, -1, 4, -1, 5] [[1, 2, 3], [4, 5, 6]] }
-- output { 3i64 [3, 4, 5] 3i64 [0i64, 1i64, 2i64] 2i64 }
-- input { empty([0]i32) empty([0][4]i32) }
-- output { 0i64 empty([0]i32) 4i64 [0i64, 1i64, 2i64, 3i64] 0i64 }

entry main (xs: []i32) (yss: [][]i32) =
  let [n] (pos: [n]i32) = filter (> 0) xs
  let [r][c] (m: [r][c]i32) = yss
  let [k] (a: [k]i64, b: [k]i64) = (iota c, map (* 2) (iota c))
  let ys: [k]i64 = map2 (-) b a
  in (n, pos, c, ys, r)
