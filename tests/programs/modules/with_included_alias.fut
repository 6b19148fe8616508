-- A module type that includes another with its type set to one of its own abstract
-- types (`include S with elem = elem`) keeps that type abstract: `with elem = f32` may
-- still refine it, and a module defining elem as f32 matches.
-- ==
-- input { 1.5f32 } output { 3.0f32 }
module type has_elem = {
  type elem
  val double : elem -> elem
}
module type scaled = {
  type elem
  include has_elem with elem = elem
  val half : elem -> elem
}
module scaled_f32 : scaled with elem = f32 = {
  type elem = f32
  def double (x: f32) = x * 2
  def half (x: f32) = x / 2
}
def main (x: f32) = scaled_f32.double x
