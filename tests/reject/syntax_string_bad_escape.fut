-- An escape Haskell's read does not know is an error in a string literal.
-- ==
-- error: syntax_string_bad_escape\.fut:4:25: error: invalid escape '\\q' in a string literal
def main (x: i32) = "abc\qdef"
