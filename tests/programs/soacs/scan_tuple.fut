-- scan over tuples: running maximum together with the index where it was reached
-- (ties keep the earlier index).
-- ==
-- input { [2, 7, 1, 7, 9] }  output { [2, 7, 7, 7, 9] [0i64, 1i64, 1i64, 1i64, 4i64] }
-- input { [5] }              output { [5] [0i64] }
-- input { empty([0]i32) }    output { empty([0]i32) empty([0]i64) }
def op (a: i32, i: i64) (b: i32, j: i64) : (i32, i64) =
  if b > a then (b, j) else (a, i)

entry main [n] (xs: [n]i32) : ([n]i32, [n]i64) =
  unzip (scan op (i32.lowest, -1) (zip xs (iota n)))
