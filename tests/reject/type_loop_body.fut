-- A loop body must have the type of the loop parameters.
-- ==
-- error: type_loop_body\.fut:4:47: error: Loop body does not have expected type: the loop parameters have type i32, but the body has type bool
def main (n: i32) = loop acc = 0 for i < n do acc > 1
