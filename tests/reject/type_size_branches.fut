-- Branches of different sizes make an unknown size, which is not the declared one.
-- ==
-- error: type_size_branches\.fut:4:64: error: Function body does not have expected type: the body of 'main' has type \[\]i32, but its declared return type is \[n\]i32 \(Sizes "n" and "d_1" do not match; "d_1" is unknown due to conditional expression at 4:64-83: one branch returns array of type \[n\]i32, the other an array of type \[m\]i32\)
def main [n][m] (b: bool) (xs: [n]i32) (ys: [m]i32) : [n]i32 = if b then xs else ys
