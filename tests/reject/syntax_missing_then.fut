-- An 'if' without 'then' must be rejected at the token after the condition.
-- ==
-- error: syntax_missing_then\.fut:4:30: error: expected 'then'
def main (x: i32) = if x > 0 1 else 2
