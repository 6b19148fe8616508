-- A range 0..<e has size e.
-- ==
-- error: type_size_range\.fut:4:30: error: Function body does not have expected type: the body of 'main' has type \[n \+ 1\]i64, but its declared return type is \[n\]i64 \(Sizes "n" and "n \+ 1" do not match\)
def main (n: i64) : [n]i64 = 0..<(n + 1)
