-- A numeric escape beyond the largest code point (U+10FFFF) is an error.
-- ==
-- error: syntax_string_escape_too_large\.fut:4:23: error: escape '\\x110000' in a string literal is beyond the largest code point, \\1114111
def main : []u8 = "abc\x110000"
