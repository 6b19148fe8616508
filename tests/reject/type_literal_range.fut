-- An integer literal must fit in its type.
-- ==
-- error: type_literal_range\.fut:4:24: error: Literal 256 out of bounds for type u8
def main (x: u8) = x + 256
