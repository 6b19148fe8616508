-- An unterminated string literal is a lexical error.
-- ==
-- error: syntax_unterminated_string\.fut:4:21: error: unterminated string literal
def main (x: i32) = "abc
