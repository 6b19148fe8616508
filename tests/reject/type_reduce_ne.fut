-- reduce's neutral element must have the element type.
-- ==
-- error: type_reduce_ne\.fut:4:40: error: the third argument of 'reduce' must be of type \[\]f32, but has type \[\]i32
def main (xs: []i32) = reduce (+) 0f32 xs
