-- A size parameter [n] is bound from the argument and usable as an i64 value in the body.
-- ==
-- input { [5, 6, 7] }     output { [5, 7, 9] 3i64 7 }
-- input { [1] }           output { [1] 1i64 1 }
-- input { empty([0]i32) } output { empty([0]i32) 0i64 0 }
def add_index [n] (xs: [n]i32) : [n]i32 = map2 (\x i -> x + i32.i64 i) xs (iota n)

def size_of [n] (_: [n]i32) : i64 = n

def last_or_zero [n] (xs: [n]i32) : i32 = if n == 0 then 0 else xs[n - 1]

entry main (xs: []i32) : ([]i32, i64, i32) =
  (add_index xs, size_of xs, last_or_zero xs)
