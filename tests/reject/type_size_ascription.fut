-- A type ascription does not change sizes (:> does).
-- ==
-- error: type_size_ascription\.fut:4:29: error: Expression does not have expected type from type ascription: it is ascribed type \[3\]i32, but has type \[n\]i32 \(Sizes "3" and "n" do not match\)
def main [n] (xs: [n]i32) = xs : [3]i32
