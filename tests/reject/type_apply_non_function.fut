-- Only functions can be applied.
-- ==
-- error: type_apply_non_function\.fut:4:21: error: Cannot apply expression as function, as it has non-function type i32
def main (x: i32) = (x + 1) 2
