-- Size expressions in types are left out of the subset.
-- ==
-- error: unsupported_size_expr\.fut:4:20: error: size expressions are not supported
def main [n] (xs: [n+1]i32): i32 = xs[0]
