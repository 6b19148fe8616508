-- A consumed loop parameter's new value may not alias an array from outside the loop:
-- the next iteration would consume it.
-- ==
-- error: type_uniq_loop_param_aliases_outer\.fut:8:12: error: Return value for consuming loop parameter "xs" aliases "ys"\.
def main (n: i64) : i64 =
  let xs = iota n
  let ys = iota n
  let xs = loop xs for i < n do
             let xs[i] = 0
             in ys
  in xs[0] + ys[0]
