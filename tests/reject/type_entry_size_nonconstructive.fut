-- An entry point's size parameter must be the size of some parameter, not only part of
-- a size expression: the arguments must give it.
-- ==
-- error: type_entry_size_nonconstructive\.fut:5:5: error: Entry point size parameter \[n\] only used non-constructively
def main [n] (xs: [n+1]i32): i32 = xs[0]
