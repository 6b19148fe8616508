-- A module's function may consume its argument only where the module type's `val`
-- specification does.
-- ==
-- error: val_consumes\.fut:8:22: error: Module type specifies val bump \[n\] : \[n\]i32 -> i32, but module provides a different one: parameters \*\[n\]i32 and \[n\]i32 are incompatible regarding consuming their arguments\.
module type counter = {
  val bump [n] : [n]i32 -> i32
}
module c : counter = {
  def bump [n] (xs: *[n]i32) : i32 = (xs with [0] = 1)[0]
}
def main (xs: []i32) : i32 = c.bump xs
