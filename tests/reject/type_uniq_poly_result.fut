-- A polymorphic function's result aliases its argument when it is an array: updating
-- it in place would update the caller's non-unique parameter.
-- ==
-- error: type_uniq_poly_result\.fut:8:6: error: Consuming variable "xs", which is not consumable \(it is a non-unique parameter\)\.
def same 't (x: t) : t = x
def main (xs: []i32) : []i32 =
  let ys = same xs
  in ys with [0] = 1
