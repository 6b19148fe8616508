-- A size parameter of a type abbreviation must occur in its definition.
-- ==
-- error: type_decl_unused_size\.fut:4:1: error: Size parameter "\[n\]" unused\.
type vec3 [n] = [3]f32
def main (x: f32) = x
