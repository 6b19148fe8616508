-- A loop without 'do' before its body must be rejected.
-- ==
-- error: syntax_missing_do\.fut:4:45: error: expected 'do' before the loop body
def main (n: i32) = loop acc = n for i < 10 acc + i
