-- assert's condition must be a bool.
-- ==
-- error: type_assert_condition\.fut:4:28: error: the condition of 'assert' must be a bool, but has type i32
def main (x: i32) = assert x (x + 1)
