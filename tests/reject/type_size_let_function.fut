-- A size a let binds must be the size of a value, not only of a function's parameter.
-- ==
-- error: type_size_let_function\.fut:4:12: error: Cannot bind \[n\] as it is never used as the size of a concrete \(non-function\) value\.
def main = let [n] (f: [n]i32 -> [n]i32) = \(xs: [3]i32) -> xs in n
