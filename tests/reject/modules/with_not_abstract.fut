-- 'with' refines an abstract type only.
-- ==
-- error: with_not_abstract\.fut:5:23: error: "t" is not an abstract type in the module type\.
module type has_t = { type t = i32 }
module type refined = has_t with t = i32
def main (x: i32) = x
