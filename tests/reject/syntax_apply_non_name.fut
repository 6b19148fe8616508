-- Only named functions can be applied; a parenthesised expression cannot.
-- ==
-- error: syntax_apply_non_name\.fut:4:21: error: only named functions can be applied
def main (x: i32) = (x + 1) 2
