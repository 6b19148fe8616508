-- Records are left out of the subset.
-- ==
-- error: unsupported_record\.fut:4:14: error: records are not supported
def main (p: {x: i32, y: i32}) = 0
