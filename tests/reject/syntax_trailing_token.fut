-- A stray token after a definition body is rejected.
-- ==
-- error: syntax_trailing_token\.fut:4:23: error: unexpected '\)' after the body of 'main'
def main (x: i32) = x )
