-- A character literal's escape is one character or decimal digits, as in Futhark's
-- lexer: '\x41' is not a character literal.
-- ==
-- error: syntax_char_literal_escape\.fut:5:23: error: invalid escape '\\x' in a character literal
def main : i32 = 1 + '\x41'
