-- An unbound name is reported at its use.
-- ==
-- error: type_unknown_variable\.fut:4:25: error: unknown variable 'y'
def main (x: i32) = x + y
