-- f32 arithmetic is done in single precision: 2^24 + 1 rounds back to 2^24, f64 keeps it.
-- ==
-- input { 16777216.0f32 } output { true false 1.0000001f32 }
-- input { 1.0f32 } output { false false 1.0000001f32 }
entry main (x: f32) : (bool, bool, f32) =
  let tenth = loop acc = 0.0f32 for _i < 10 do acc + 0.1
  in (x + 1.0 == x, f64.f32 x + 1.0 == f64.f32 x, tenth)
