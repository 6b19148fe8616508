-- A 'val' specification may not name two parameters alike.
-- ==
-- error: val_spec_param_twice\.fut:4:23: error: The parameter name "n" is bound twice in the type of 'make'\.
module type sized = { val make : (n: i64) -> (n: i64) -> [n]i32 }
def main (x: i32) = x
