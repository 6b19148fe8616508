-- An 'if' without 'else' must be rejected.
-- ==
-- error: syntax_missing_else\.fut:4:36: error: expected 'else'
def main (x: i32) = if x > 0 then 1

