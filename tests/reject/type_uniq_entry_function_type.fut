-- An entry point given a function must have that function's type, also whether the
-- parameters are consumed.
-- ==
-- error: type_uniq_entry_function_type\.fut:6:29: error: Function body does not have expected type: parameters \*\[\]f32 and \[\]f32 are incompatible regarding consuming their arguments\.
def first (xs: *[]f32) : f32 = (xs with [0] = 1)[1]
entry main : []f32 -> f32 = first
