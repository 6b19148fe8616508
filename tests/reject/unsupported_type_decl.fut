-- Type declarations are left out of the subset.
-- ==
-- error: unsupported_type_decl\.fut:4:1: error: type declarations are not supported
type point = (f32, f32)
def main (x: i32) = x
