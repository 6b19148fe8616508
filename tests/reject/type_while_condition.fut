-- A while condition must be a bool.
-- ==
-- error: type_while_condition\.fut:4:38: error: the condition of a 'while' loop must be a bool, but has type i32
def main (n: i32) = loop x = n while x do x - 1
