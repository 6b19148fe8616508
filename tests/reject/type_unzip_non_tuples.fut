-- unzip needs an array of pairs.
-- ==
-- error: type_unzip_non_tuples\.fut:4:30: error: Cannot apply "unzip" to "xs" \(invalid type\): the first argument must be of type \[\]\(t1, t2\), but has type \[\]i32
def main (xs: []i32) = unzip xs
