-- 'with' must give the refined type the parameters it is specified with.
-- ==
-- error: with_params\.fut:5:23: error: Cannot refine a type having no type parameters with a type having type parameters 'a\.
module type container = { type c 'a }
module type refined = container with c = []i32
def main (x: i32) = x
