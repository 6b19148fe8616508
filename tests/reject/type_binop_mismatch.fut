-- Arithmetic operands must have the same type (no implicit conversion).
-- ==
-- error: type_binop_mismatch\.fut:4:30: error: the operands of '\+' must have the same type, but have types i32 and i64
def main (x: i32) (y: i64) = x + y
