-- A numeric literal with an unknown suffix is rejected.
-- ==
-- error: syntax_bad_suffix\.fut:4:21: error: invalid suffix 'i33' on numeric literal
def main (x: i32) = 12i33 + x
