-- Arithmetic is not defined on bool.
-- ==
-- error: type_bool_arith\.fut:4:22: error: '\+' needs numbers, but its left operand has type bool
def main (b: bool) = b + b
