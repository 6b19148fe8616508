-- A type parameter is any type: arithmetic on it is an error.
-- ==
-- error: type_polymorphic_arith\.fut:4:28: error: '\+' needs numbers, but its left operand has type a
def double 'a (x: a) : a = x + x
def main (x: i32) = double x
