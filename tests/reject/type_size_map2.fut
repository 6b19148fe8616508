-- The arrays map2 takes must have the same size (statically, as in Futhark).
-- ==
-- error: type_size_map2\.fut:4:57: error: Cannot apply "map2" to "ys" \(invalid type\): the third argument must be of type \[n\]t3, but has type \[m\]i32 \(Sizes "n" and "m" do not match\)
def main [n][m] (xs: [n]i32) (ys: [m]i32) = map2 (+) xs ys
