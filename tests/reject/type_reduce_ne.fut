-- reduce's neutral element must have the element type.
-- ==
-- error: type_reduce_ne\.fut:4:40: error: Cannot apply "reduce" to "xs" \(invalid type\): the third argument must be of type \[\]f32, but has type \[\]i32
def main (xs: []i32) = reduce (+) 0f32 xs
