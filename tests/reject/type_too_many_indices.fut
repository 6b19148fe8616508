-- More indices than the array has dimensions.
-- ==
-- error: type_too_many_indices\.fut:4:24: error: 2 indices given for an array of rank 1 \(type \[\]i32\)
def main (xs: []i32) = xs[0, 1]
