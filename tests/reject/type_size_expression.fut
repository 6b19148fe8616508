-- iota (length xs) has size "length xs", not the size of xs (sizes are expressions).
-- ==
-- error: type_size_expression\.fut:4:38: error: Function body does not have expected type: the body of 'main' has type \[length xs\]i64, but its declared return type is \[n\]i64 \(Sizes "n" and "length xs" do not match\)
def main [n] (xs: [n]i32) : [n]i64 = iota (length xs)
