-- A negated literal of an unsigned type is out of bounds.
-- ==
-- error: type_literal_range_unsigned\.fut:4:28: error: Literal -4 out of bounds for type u32
def main (x: u32) : u32 = -4 + x
