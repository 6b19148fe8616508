-- A size parameter that only the context gives must be decided by it.
-- ==
-- error: type_size_context_ambiguous\.fut:5:20: error: Ambiguous size "m" arising from instantiated size parameter of "filled"\.
def filled [m] (v: i32) : [m]i32 = replicate m v
def main = length (filled 0)
