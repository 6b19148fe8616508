-- String literals are left out of the subset.
-- ==
-- error: unsupported_string\.fut:4:21: error: string literals are not supported
def main (x: i32) = "hello"
