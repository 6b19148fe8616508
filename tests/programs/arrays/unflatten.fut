-- unflatten (Futhark's current signature: unflatten [n][m] (xs: [n*m]t) : [n][m]t); the
-- sizes come from a coercion to [r * c], which fails when r * c differs from the length.
-- Negative sizes with a matching product pass the coercion but unflatten rejects them.
-- ==
-- input { 2i64 3i64 [1, 2, 3, 4, 5, 6] }  output { [[1, 2, 3], [4, 5, 6]] }
-- input { 3i64 1i64 [7, 8, 9] }           output { [[7], [8], [9]] }
-- input { 0i64 4i64 empty([0]i32) }       output { empty([0][4]i32) }
-- input { 2i64 3i64 [1, 2, 3, 4, 5] }     error: cannot match shape of type
-- input { -2i64 -2i64 [1, 2, 3, 4] }      error: Cannot unflatten.*\[-2\]\[-2\]
entry main [k] (r: i64) (c: i64) (xs: [k]i32) : [r][c]i32 =
  unflatten (xs :> [r * c]i32)
