-- Array literal elements must share a type.
-- ==
-- error: type_array_elems\.fut:4:25: error: array elements must have the same type: the first has type i32, this one f32
def main (x: i32) = [x, 2.5f32]
