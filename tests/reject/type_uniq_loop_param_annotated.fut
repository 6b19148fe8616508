-- A loop parameter annotated with a non-unique type may not be consumed.
-- ==
-- error: type_uniq_loop_param_annotated\.fut:5:36: error: Consuming variable "ys", which is not consumable \(it is a loop parameter whose type is not unique\)\.
def main (xs: *[]i32) : []i32 =
  loop ys: []i32 = xs for i < 3 do ys with [i] = 0
