-- '++' needs arrays of the same element type.
-- ==
-- error: type_concat_mismatch\.fut:4:36: error: the operands of '\+\+' must have the same type, but have types \[\]i32 and \[\]f32
def main (xs: []i32) (ys: []f32) = xs ++ ys
