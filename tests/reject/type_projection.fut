-- Projection of a component a tuple lacks.
-- ==
-- error: type_projection\.fut:4:28: error: a tuple of type \(i32, i32\) has no component 2
def main (p: (i32, i32)) = p.2
