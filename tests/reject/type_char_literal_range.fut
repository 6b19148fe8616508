-- A character literal is an unsuffixed integer literal: its code point must fit the type
-- inference gives it.
-- ==
-- error: type_char_literal_range\.fut:5:29: error: Literal 955 out of bounds for type u8
def main (c: u8) : u8 = c + 'λ'
