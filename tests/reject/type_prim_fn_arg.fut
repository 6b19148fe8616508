-- f32.sqrt takes an f32.
-- ==
-- error: type_prim_fn_arg\.fut:4:30: error: Cannot apply "f32\.sqrt" to "x" \(invalid type\): the first argument must be of type f32, but has type f64
def main (x: f64) = f32.sqrt x
