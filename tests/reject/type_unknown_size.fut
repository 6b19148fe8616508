-- A size in a type must be a variable in scope.
-- ==
-- error: type_unknown_size\.fut:4:24: error: unknown size 'k' in type \[k\]i32
def main (xs: []i32) = xs :> [k]i32
