-- An unclosed parenthesis must be reported where the ')' was expected.
-- ==
-- error: syntax_unclosed_paren\.fut:4:27: error: expected '\)' or ','
def main (x: i32) = (x + 1
