-- An argument of the wrong type.
-- ==
-- error: type_wrong_arg_type\.fut:5:23: error: Cannot apply "f" to "x" \(invalid type\): the first argument must be of type i32, but has type f64
def f (x: i32) = x + 1
def main (x: f64) = f x
