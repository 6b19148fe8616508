-- Ranges as the array of a for-in loop and inside map.
-- ==
-- input { 4 } output { 30 [0, 2, 4, 6, 8] }
-- input { 0 } output { 0 [0] }
entry main (n: i32) : (i32, []i32) =
  (loop acc = 0 for i in 0...n do acc + i * i, map (* 2) (0...n))
