-- A tuple pattern must match the value's shape.
-- ==
-- error: type_tuple_pattern\.fut:4:25: error: a tuple pattern of 2 components cannot match a value of type i32
def main (x: i32) = let (a, b) = x in a + b
