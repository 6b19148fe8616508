-- The module's type must take the parameters the specification gives it.
-- ==
-- error: spec_type_params\.fut:4:31: error: Module defines\n  type pair = \(i32, i32\)\nbut module type requires type 'pair' with type parameters 'a\.
module m : { type pair 'a } = { type pair = (i32, i32) }
def main (x: i32) = x
