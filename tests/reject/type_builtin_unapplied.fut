-- A built-in function must be applied to arguments.
-- ==
-- error: type_builtin_unapplied\.fut:4:24: error: the built-in function 'length' must be applied to arguments
def main (xs: []i32) = length
