-- scatter's values must match the destination's elements.
-- ==
-- error: type_scatter_values\.fut:4:63: error: Cannot apply "scatter" to "vs" \(invalid type\): the third argument must be of type \[\]i32, but has type \[\]f32
def main (xs: *[]i32) (is: []i64) (vs: []f32) = scatter xs is vs
