-- Sizes are i64: a variable used as a size must have that type.
-- ==
-- error: type_size_not_i64\.fut:4:17: error: the size "n" must have type i64, but has type i32
def f (n: i32) (xs: [n]f32) = xs
def main (xs: []f32) = f 2 xs
