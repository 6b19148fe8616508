-- A consumed argument may not alias another argument of the same call.
-- ==
-- error: type_uniq_consume_aliased_arg\.fut:7:10: error: Argument is consumed, but aliases "xs" which is also aliased by other argument "xs" at 7:13-14\.
def upd (xs: *[]i32) (ys: []i32) : []i32 = xs with [0] = ys[0]
def main (n: i64) : []i32 =
  let xs = map i32.i64 (iota n)
  in upd xs xs
