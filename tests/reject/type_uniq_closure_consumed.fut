-- A function captures the arrays its body uses: calling it after one of them was
-- consumed uses the consumed array.
-- ==
-- error: type_uniq_closure_consumed\.fut:8:6: error: Using variable "xs", but this was consumed at 7:7-15\. \(Possibly through aliases\.\)
def main (xs: *[]i32) : i32 =
  let f (i: i64) = xs[i]
  let xs[0] = 1
  in f 0
