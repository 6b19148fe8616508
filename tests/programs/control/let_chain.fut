-- A chain of lets where only the last one has `in`, and shadowing of names.
-- ==
-- input { 1 } output { 12 }
-- input { 0 } output { 8 }
entry main (x: i32) : i32 =
  let y = x + 1
  let y = y * 2
  let z = y + x
  let x = z + 4
  in x + y - z + x * 0 + y
