-- map's function takes one argument.
-- ==
-- error: type_map_lambda_arity\.fut:4:29: error: the function given to 'map' must take 1 argument\(s\), but this one takes 2
def main (xs: []i32) = map (\x y -> x + y) xs
