-- An abstract type specified non-lifted cannot hide a size.
-- ==
-- error: spec_anonymous_sizes\.fut:4:25: error: Module defines\n  type~ t = \[\]i32\nbut module type requires a non-lifted type\.
module m : { type t } = { type~ t = []i32 }
def main (x: i32) = x
