-- Max-with-index reduction over tuples; ties go to the smallest index.
-- ==
-- input { [3, 9, 2, 9, 1] }  output { 9 1i64 }
-- input { [-5] }             output { -5 0i64 }
-- input { [4, 4, 4] }        output { 4 0i64 }
-- input { empty([0]i32) }    output { -2147483648 -1i64 }
def argmax (a: (i32, i64)) (b: (i32, i64)) : (i32, i64) =
  if a.0 > b.0 then a
  else if b.0 > a.0 then b
  else if a.1 < b.1 then a else b

entry main [n] (xs: [n]i32) : (i32, i64) =
  reduce argmax (i32.lowest, -1) (zip xs (iota n))
