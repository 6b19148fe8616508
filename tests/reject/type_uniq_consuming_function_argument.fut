-- A function that consumes its argument may not be passed where the parameter's type
-- says it does not.
-- ==
-- error: type_uniq_consuming_function_argument\.fut:7:37: error: Cannot apply "apply" to "first" \(invalid type\): parameters \*\[\]i32 and a are incompatible regarding consuming their arguments\.
def apply 'a 'b (f: a -> b) (x: a) : b = f x
def first (xs: *[]i32) : i32 = let xs[0] = 0 in xs[1]
def main (xs: *[]i32) : i32 = apply first xs
