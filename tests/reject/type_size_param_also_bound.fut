-- A size parameter and a parameter may not have the same name.
-- ==
-- error: type_size_param_also_bound\.fut:4:25: error: Name 'n' also bound in another parameter of 'f'
def f [n] (xs: [n]i32) (n: i64) : i64 = n
def main (xs: []i32) : i64 = f xs 1
