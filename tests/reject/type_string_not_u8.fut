-- A string literal is an array of u8.
-- ==
-- error: type_string_not_u8\.fut:4:20: error: .*has type \[3\]u8, but its declared return type is \[\]i32
def main : []i32 = "abc"
