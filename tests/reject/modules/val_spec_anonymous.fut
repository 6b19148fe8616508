-- A 'val' specification's parameters must have named sizes.
-- ==
-- error: val_spec_anonymous\.fut:4:24: error: All function parameters must have non-anonymous sizes\.\nHint: add size parameters to "total"\.
module type summer = { val total : []f32 -> f32 }
def main (x: i32) = x
