-- filter's predicate must return bool.
-- ==
-- error: type_filter_pred\.fut:4:32: error: Cannot apply "filter" to "\\x -> x \+ 1" \(invalid type\): the result of the function given as the first argument has type i32, but must have type bool
def main (xs: []i32) = filter (\x -> x + 1) xs
