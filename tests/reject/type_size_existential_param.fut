-- An existential size may not be only the size of a function's parameter in a result.
-- ==
-- error: type_size_existential_param\.fut:5:20: error: Cannot apply "uncurry" to "f" \(invalid type\): the first argument must be of type i64 -> i64 -> t2, but has type \(n: i64\) -> \(m: i64\) -> \[\]\[\]bool -> bool \(Existential size would appear in function parameter of return type: \[\]\[\]bool -> bool\. This is usually because a higher-order function is used with functional arguments that return existential sizes or locally named sizes, which are then used as parameters of other function arguments\)
def f (n: i64) (m: i64) (b: [n][m]bool) = b[0, 0]
def main = uncurry f
