-- A size cannot be an expression of itself (a -> a must keep the size).
-- ==
-- error: type_size_occurs\.fut:5:15: error: Cannot apply "f" to "\\\(xs: \[\]i32\) -> xs \+\+ xs" \(invalid type\): the result of the function given as the first argument has type \[s_2 \+ s_2\]i32, but must have type \[\]i32 \(Occurs check: cannot instantiate "s_2" with "s_2 \+ s_2"\)
def f 'a (g: a -> a) = g
def main = f (\(xs: []i32) -> xs ++ xs)
