-- A partial application that consumes may not be bound to a name: each call would
-- consume the array again.
-- ==
-- error: type_uniq_partial_consumes\.fut:7:11: error: Let-bound expression of higher-order type i64 -> i32 -> \*\[\]i32 contains consumption, which is not allowed\.
def update (xs: *[]i32) (i: i64) (v: i32) : *[]i32 = xs with [i] = v
def main (xs: *[]i32) : []i32 =
  let f = update xs
  in f 0 1
