-- Concatenated arrays must have rows of the same size.
-- ==
-- error: type_size_concat_rows\.fut:4:56: error: the operands of '\+\+' must have the same type, but have types \[n\]\[k\]i32 and \[n\]\[l\]i32 \(Sizes "k" and "l" do not match\)
def main [n][k][l] (xss: [n][k]i32) (yss: [n][l]i32) = xss ++ yss
