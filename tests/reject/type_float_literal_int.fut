-- A float literal cannot be an integer.
-- ==
-- error: type_float_literal_int\.fut:4:21: error: the operands of '\+' must have the same type, but have types i32 and f64
def main (x: i32) = x + 1.5
