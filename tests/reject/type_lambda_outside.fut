-- Anonymous functions may only be arguments of built-in functions.
-- ==
-- error: type_lambda_outside\.fut:4:29: error: a function value can only be the argument of a built-in function such as map, reduce or scan \(user-defined higher-order functions are not supported\)
def main (x: i32) = let f = \y -> y + 1 in x
