-- A loop body must have the type of the loop parameters.
-- ==
-- error: type_loop_body\.fut:4:47: error: the loop body has type bool, but the loop parameters have type i32
def main (n: i32) = loop acc = 0 for i < n do acc > 1
