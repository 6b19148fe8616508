-- A function argument whose evaluation consumes (a partial application of a consuming
-- function) would consume once per call made of it.
-- ==
-- error: type_uniq_consuming_argument\.fut:8:11: error: Argument of functional type i64 -> \[n\]i64 contains consumption, which is not allowed\.
def set (xs: *[]i64) (i: i64) : []i64 = xs with [i] = 0
def main (n: i64) : [][]i64 =
  let a = iota n
  in map (set a) (iota n)
