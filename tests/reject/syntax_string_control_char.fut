-- A string literal holds printable characters only: a tab must be written \t.
-- ==
-- error: syntax_string_control_char\.fut:4:21: error: a string literal cannot contain the control character 0x09
def main : []u8 = "a	b"
