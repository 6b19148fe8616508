-- A character outside the language is a lexical error.
-- ==
-- error: syntax_bad_char\.fut:4:23: error: unexpected character '\$'
def main (x: i32) = x $ 2
