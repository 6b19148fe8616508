-- A type specified with a definition must be defined as that type.
-- ==
-- error: spec_type_definition\.fut:5:20: error: Module defines\n  type coord = f32\nbut module type requires\n  type coord = f64
module type point = { type coord = f64  val origin : coord }
module p : point = { type coord = f32  def origin : coord = 0 }
def main (x: i32) = x
