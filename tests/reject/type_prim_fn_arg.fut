-- f32.sqrt takes an f32.
-- ==
-- error: type_prim_fn_arg\.fut:4:30: error: the first argument of 'f32\.sqrt' must be of type f32, but has type f64
def main (x: f64) = f32.sqrt x
