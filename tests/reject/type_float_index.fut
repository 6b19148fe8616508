-- Indices must be integers.
-- ==
-- error: type_float_index\.fut:4:36: error: an index must be an integer, but has type f32
def main (xs: []i32) (i: f32) = xs[i]
