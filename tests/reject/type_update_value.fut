-- An in-place update's value must have the element type.
-- ==
-- error: type_update_value\.fut:4:39: error: the new value has type f32, but the updated part of the array has type i32
def main (xs: *[]i32) = xs with [0] = 1.5f32
