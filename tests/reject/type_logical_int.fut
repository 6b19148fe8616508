-- '&&' needs bools.
-- ==
-- error: type_logical_int\.fut:4:21: error: '&&' needs bools, but its left operand has type i32
def main (x: i32) = x && true
