-- Bitwise operators need integers.
-- ==
-- error: type_float_bitwise\.fut:4:21: error: '&' needs integers, but its left operand has type f32
def main (x: f32) = x & x
