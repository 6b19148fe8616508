-- map's function takes one argument.
-- ==
-- error: type_map_lambda_arity\.fut:4:29: error: Cannot apply "map" to "\\x y -> x \+ y" \(invalid type\): the first argument must be a function of 1 argument\(s\), but this one takes 2
def main (xs: []i32) = map (\x y -> x + y) xs
