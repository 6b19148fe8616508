-- == on a type parameter: it may be instantiated with any type, also one without
-- equality, so the comparison is rejected where it is written (here an inferred one).
-- ==
-- error: type_equality_type_param\.fut:5:19: error: Type t0 does not support equality: 't0' is a type parameter, which may be any type
def same_as x y = x == y
def main (a: i32) = same_as a 1
