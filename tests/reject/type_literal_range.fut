-- An integer literal must fit in its type.
-- ==
-- error: type_literal_range\.fut:4:24: error: integer literal 256 does not fit in type u8
def main (x: u8) = x + 256
