-- Backtick infix application is left out of the subset.
-- ==
-- error: unsupported_backtick\.fut:4:23: error: backtick operators are not supported
def main (x: i32) = x `i32.max` 2
