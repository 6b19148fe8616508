-- User-defined operators are left out of the subset.
-- ==
-- error: unsupported_user_operator\.fut:4:6: error: user-defined operators are not supported: '\+\^'
def (+^) (x: i32) (y: i32) = x + y
def main (x: i32) = x +^ 1
