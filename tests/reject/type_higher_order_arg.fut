-- A function argument must have the parameter's function type.
-- ==
-- error: type_higher_order_arg\.fut:5:28: error: Cannot apply "twice" to "\\y -> y > 0" \(invalid type\): the result of the function given as the first argument has type bool, but must have type i32
def twice (f: i32 -> i32) (x: i32) = f (f x)
def main (x: i32) = twice (\y -> y > 0) x
