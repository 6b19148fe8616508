-- Consuming a part of a tuple consumes the variable the tuple is bound to: its other
-- parts may not be used afterwards.
-- ==
-- error: type_uniq_tuple_part_consumed\.fut:8:6: error: Using variable "t", but this was consumed at 7:7-14\. \(Possibly through aliases\.\)
def f (t: ([]i32, *[]i32)) : i32 =
  let (a, b) = t
  let b[0] = 1
  in a[0]
def main (xs: []i32) (ys: *[]i32) : i32 = f (xs, ys)
