-- The parts of a tuple passed for a consuming parameter may not alias each other.
-- ==
-- error: type_uniq_self_aliased_argument\.fut:5:33: error: Argument passed for consuming parameter is self-aliased\.
def f (p: (*[]i32, *[]i32)) : i32 = let (a, _) = p in (a with [0] = 0)[0]
def main (xs: *[]i32) : i32 = f (xs, xs)
