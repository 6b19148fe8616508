-- transpose needs an array of rank 2 or more.
-- ==
-- error: type_transpose_rank1\.fut:4:34: error: Cannot apply "transpose" to "xs" \(invalid type\): the first argument must be an array of rank 2 or more, but has type \[\]i32
def main (xs: []i32) = transpose xs
