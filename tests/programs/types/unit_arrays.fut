-- Arrays of the empty tuple: their length survives (the code generator does not
-- support them yet and says so instead of crashing; found by running Futhark's
-- tests/issue1936.fut on the CPU device).
-- ==
-- input { 3i64 } output { 3i64 2.5f32 }
-- input { 0i64 } output { 0i64 2.5f32 }
entry main (n: i64) : (i64, f32) =
  let us = replicate n ()
  in (length us, (2.5f32, ()).0)
