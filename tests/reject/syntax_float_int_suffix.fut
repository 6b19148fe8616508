-- A float literal cannot carry an integer suffix.
-- ==
-- error: syntax_float_int_suffix\.fut:4:21: error: float literal cannot have the integer suffix 'i32'
def main (x: i32) = 1.5i32 + x
