-- A name that starts with an underscore says the value is unused: using it is an error.
-- ==
-- error: type_underscore_use\.fut:4:37: error: Using '_n': a variable whose name starts with an underscore may be bound, but not used
def main (xs: []i32) (_n: i64) = xs[_n]
