-- The body must match the declared return type.
-- ==
-- error: type_return_mismatch\.fut:4:26: error: Function body does not have expected type: the body of 'main' has type i32, but its declared return type is f32
def main (x: i32): f32 = x
