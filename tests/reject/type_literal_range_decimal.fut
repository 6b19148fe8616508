-- A decimal literal must fit its signed type (128 is not an i8; 0x80i8 is the bit
-- pattern -128), and a negated one may not be unsigned.
-- ==
-- error: type_literal_range_decimal\.fut:6:29: error: Literal 128 out of bounds for type i8
def ok : i8 = 0x80i8
def main (x: i8) : i8 = x + 128 + ok
