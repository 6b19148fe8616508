-- A function argument must respect the sizes its named parameter gives.
-- ==
-- error: type_size_function_argument\.fut:5:16: error: Cannot apply "ap" to "\\n -> iota \(n \+ 1\)" \(invalid type\): the result of the function given as the first argument has type \[n \+ 1\]i64, but must have type \[\]i64 \(Sizes "n" and "n \+ 1" do not match\)
def ap (f: (n: i64) -> [n]i64) (k: i64) : [k]i64 = f k
def main = ap (\n -> iota (n + 1)) 10
