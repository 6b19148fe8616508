-- A module given to a parametric module must match the parameter's module type.
-- ==
-- error: signature_missing_type\.fut:7:15: error: Module does not define a type named 't'
module type has_t = { type t  val x : t }
module F (P: has_t) = { def y = P.x }
module A = { def x = 1i32 }
module B = F (A)
def main (z: i32) = B.y + z
