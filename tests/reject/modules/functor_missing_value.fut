-- A parametric module's body must define what its result module type specifies, also
-- when the module is never applied.
-- ==
-- error: functor_missing_value\.fut:5:66: error: Module does not define a value named 'apply' \(its module type requires it\)
module scale (p: { val k : f32 }) : { val apply : f32 -> f32 } = { def app (x: f32) = p.k * x }
def main (x: i32) = x
