-- Reductions with index: per-row argmax of a matrix (first maximal column) and the global
-- argmax over the flattened matrix, returned as (row, column).
-- ==
-- input { [[3, 8, 8, 1], [7, 2, 9, 9], [-1, -5, -1, -2]] }
-- output { [1i64, 2i64, 0i64] [8, 9, -1] 1i64 2i64 }
-- input { [[4]] }  output { [0i64] [4] 0i64 0i64 }
def amax (a: (i32, i64)) (b: (i32, i64)) : (i32, i64) =
  if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) then b else a

entry main [n][m] (xss: [n][m]i32) : ([n]i64, [n]i32, i64, i64) =
  let per_row = map (\row -> reduce amax (i32.lowest, -1) (zip row (iota m))) xss
  let (vals, idxs) = unzip per_row
  let (_, flat) = reduce amax (i32.lowest, -1) (zip (flatten xss) (iota (n * m)))
  in (idxs, vals, flat / m, flat % m)
