-- Slices have sizes of their bounds (n - 1 and m - 1), which differ.
-- ==
-- error: type_size_slices\.fut:4:56: error: Cannot apply "zip" to "ys\[1:\]" \(invalid type\): the second argument must be of type \[n - 1\]t3, but has type \[m - 1\]i32 \(Sizes "n - 1" and "m - 1" do not match\)
def main [n][m] (xs: [n]i32) (ys: [m]i32) = zip xs[1:] ys[1:]
