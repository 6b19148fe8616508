-- A value of another type than its module type specifies does not match it.
-- ==
-- error: val_spec_type_mismatch\.fut:6:27: error: Module type specifies val scale : f32 -> f32 but module provides val scale : i32 -> i32
module type scaler = { val scale : f32 -> f32 }

module doubler : scaler = { def scale (x: i32) = x * 2 }

def main (x: f32) = doubler.scale x
