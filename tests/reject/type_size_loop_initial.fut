-- The initial value must have the size the loop parameter declares.
-- ==
-- error: type_size_loop_initial\.fut:4:58: error: Initial loop values do not have expected type: the loop parameters have type \[n\]i32, but the initial values have type \[m\]i32 \(Sizes "n" and "m" do not match\)
def main [m] (xs: [m]i32) (n: i64) = loop (ys: [n]i32) = xs for i < 3 do map (+ 1) ys
