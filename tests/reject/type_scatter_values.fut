-- scatter's values must match the destination's elements.
-- ==
-- error: type_scatter_values\.fut:4:63: error: each value of 'scatter' has type f32, but must have type i32
def main (xs: *[]i32) (is: []i64) (vs: []f32) = scatter xs is vs
