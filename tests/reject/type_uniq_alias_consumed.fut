-- Consuming an array consumes what aliases it: a slice of it may not be used after.
-- The message names the consumed variable the slice aliases, as Futhark's does.
-- ==
-- error: type_uniq_alias_consumed\.fut:8:6: error: Using variable "xs", but this was consumed at 7:12-26\. \(Possibly through aliases\.\)
def main (xs: *[]i32) : i32 =
  let s = xs[1:]
  let ys = xs with [0] = 1
  in s[0] + ys[0]
