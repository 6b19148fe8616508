-- An array literal's elements may not be of a size-lifted type parameter: they could be
-- arrays of different sizes.
-- ==
-- error: type_array_lit_size_lifted_param\.fut:5:29: error: An array element may not have type a: type parameter "a" may be a function or hide a size \('\^ or '~\), and arrays hold non-lifted types only
def two '~a (f: i64 -> a) = [f 1, f 2]
def main (n: i64) = length (two (\i -> iota (i + n)))
