-- Records: literals (with punning), field access (nested), functional updates, record
-- patterns in lets, parameters and lambdas, arrays of records, records of arrays.
-- ==
-- input { [1, 2, 3] 10 }  output { 16 [11, 12, 13] 6 20 3 [2, 4, 6] }
-- input { [1, 2] 10 }     error: Index \[2\] out of bounds for array of shape \[2\]

type stats = {count: i64, sum: i32}

def add_stat (s: stats) (x: i32) : stats = {count = s.count + 1, sum = s.sum + x}

def norm1 {x, y} : i32 = i32.abs x + i32.abs y

entry main (xs: []i32) (k: i32) =
  let s = loop s = {count = 0, sum = 0} for x in xs do add_stat s x
  let p = {x = k, y = -6}
  let q = p with y = 2 * k
  let nested = {inner = {a = xs, b = k}}
  let nested2 = nested with inner.b = 3
  let {x = px, y = _} = p
  let pts = map (\i -> {x = i, y = i}) xs
  in (norm1 p, map (+ nested.inner.b) xs, s.sum, q.y, nested2.inner.b + px - k,
      map (\{x, y} -> x + y) pts |> map (\v -> v + xs[2] * 0))
