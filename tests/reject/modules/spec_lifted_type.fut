-- An abstract type specified non-lifted cannot be defined as a function type.
-- ==
-- error: spec_lifted_type\.fut:4:25: error: Module defines\n  type\^ t = i32 -> i32\nbut module type requires a non-lifted type\.
module m : { type t } = { type^ t = i32 -> i32 }
def main (x: i32) = x
