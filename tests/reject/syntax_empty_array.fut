-- Empty array literals are rejected with a hint.
-- ==
-- error: syntax_empty_array\.fut:4:28: error: empty array literals are not supported
def main (x: i32): []i32 = []
