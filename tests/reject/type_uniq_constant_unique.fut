-- A top-level constant cannot have a unique type.
-- ==
-- error: type_uniq_constant_unique\.fut:4:1: error: A top-level constant cannot have a unique type\.
def zeros : *[]i32 = [0, 0]
def main (i: i64) : i32 = zeros[i]
