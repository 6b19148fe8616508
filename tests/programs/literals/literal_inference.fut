-- Unsuffixed literals take their type from the context (annotation, operand, parameter).
-- ==
-- input { 1u8 2.0f64 } output { 0u8 3.5f64 200i16 true }
-- input { 5u8 0.5f64 } output { 4u8 2.0f64 200i16 false }
entry main (a: u8) (b: f64) : (u8, f64, i16, bool) =
  let x: u8 = 255
  let y = b + 1.5
  let z: i16 = 100 * 2
  in (x + a, y, z, a < 3)
