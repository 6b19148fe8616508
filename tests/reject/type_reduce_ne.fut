-- reduce's neutral element must have the element type.
-- ==
-- error: type_reduce_ne\.fut:4:35: error: the neutral element of 'reduce' has type f32, but must have type i32
def main (xs: []i32) = reduce (+) 0f32 xs
