-- The condition of an if must be a bool.
-- ==
-- error: type_if_condition\.fut:4:24: error: the condition of 'if' must be a bool, but has type i32
def main (x: i32) = if x then 1 else 2
