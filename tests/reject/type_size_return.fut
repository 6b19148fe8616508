-- The body's size must be the declared result's.
-- ==
-- error: type_size_return\.fut:4:39: error: Function body does not have expected type: the body of 'main' has type \[n\]i32, but its declared return type is \[10\]i32 \(Sizes "10" and "n" do not match\)
def main [n] (xs: [n]i32) : [10]i32 = xs
