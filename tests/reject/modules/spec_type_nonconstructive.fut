-- An abstract type's size parameter must be an array size of its definition, or a
-- value of the type would not carry it.
-- ==
-- error: spec_type_nonconstructive\.fut:5:34: error: Type\n  type halves \[n\] = \[n / 2\]f32\ncannot be made abstract because size parameter\n  n
module m : { type halves [n] } = { type halves [n] = [n / 2]f32 }
def main (x: i32) = x
