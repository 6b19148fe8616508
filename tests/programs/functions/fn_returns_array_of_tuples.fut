-- A named function returning an array of tuples, consumed by another function.
-- ==
-- input { 4i64 }  output { [0i64, 1i64, 2i64, 3i64] [0i64, 1i64, 4i64, 9i64] 14i64 }
def squares (n: i64) : [n](i64, i64) = map (\i -> (i, i * i)) (iota n)

def total [n] (ps: [n](i64, i64)) : i64 = reduce (+) 0 (map (\(_, s) -> s) ps)

entry main (n: i64) : ([](i64, i64), i64) =
  let ps = squares n
  in (ps, total ps)
