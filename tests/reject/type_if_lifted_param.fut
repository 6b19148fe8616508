-- The branches of an if may not have a lifted type parameter's type: it may be a function.
-- ==
-- error: type_if_lifted_param\.fut:4:44: error: If-expression returns type a, but if-results may not be of function type \(functional\)
def pick '^a (c: bool) (x: a) (y: a) : a = if c then x else y
def main (c: bool) (x: i32) = pick c x 1
