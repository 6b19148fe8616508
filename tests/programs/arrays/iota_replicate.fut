-- iota and replicate, including length 0 and a replicate of an array (rank 2).
-- ==
-- input { 3i64 7 }  output { [0i64, 1i64, 2i64] [7, 7, 7] [[0i64, 1i64, 2i64], [0i64, 1i64, 2i64]] }
-- input { 1i64 -1 } output { [0i64] [-1] [[0i64], [0i64]] }
-- input { 0i64 5 }  output { empty([0]i64) empty([0]i32) empty([2][0]i64) }
entry main (n: i64) (x: i32) : ([]i64, []i32, [][]i64) =
  (iota n, replicate n x, replicate 2 (iota n))
