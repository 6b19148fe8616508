-- A function argument must have the parameter's function type.
-- ==
-- error: type_higher_order_arg\.fut:5:28: error: the result of the function given to 'twice' has type bool, but must have type i32
def twice (f: i32 -> i32) (x: i32) = f (f x)
def main (x: i32) = twice (\y -> y > 0) x
