-- Arrays compared with == must have the same type, sizes included.
-- ==
-- error: type_size_equality\.fut:4:45: error: the operands of '==' must have the same type, but have types \[n\]i32 and \[m\]i32 \(Sizes "n" and "m" do not match\)
def main [n][m] (xs: [n]i32) (ys: [m]i32) = xs == ys
