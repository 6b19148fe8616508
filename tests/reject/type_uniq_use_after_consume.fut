-- An in-place update consumes the array: it may not be used afterwards.
-- ==
-- error: type_uniq_use_after_consume\.fut:6:6: error: Using variable "xs", but this was consumed at 5:12-26\. \(Possibly through aliases\.\)
def main (xs: *[]i32) : i32 =
  let ys = xs with [0] = 1
  in xs[0] + ys[0]
