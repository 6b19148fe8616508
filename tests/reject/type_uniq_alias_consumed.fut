-- Consuming an array consumes what aliases it: a slice of it may not be used after.
-- ==
-- error: type_uniq_alias_consumed\.fut:7:6: error: Using variable "s", but this was consumed at .*type_uniq_alias_consumed\.fut:6:12-26\. \(Possibly through aliases\.\)
def main (xs: *[]i32) : i32 =
  let s = xs[1:]
  let ys = xs with [0] = 1
  in s[0] + ys[0]
