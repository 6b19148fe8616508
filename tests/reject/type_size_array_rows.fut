-- The rows of an array literal must have the same size.
-- ==
-- error: type_size_array_rows\.fut:4:34: error: array elements must have the same type: the first has type \[n\]i32, this one \[n \+ n\]i32 \(Sizes "n" and "n \+ n" do not match\)
def main [n] (xs: [n]i32) = [xs, xs ++ xs]
