-- A division inside a scan operator fails when a divisor is zero.
-- The operator (a, b) -> b keeps the last element, applied after dividing 100 by it.
-- ==
-- input { [4, 5, 10] }   output { [25, 20, 10] }
-- input { [4, 0, 10] }   error: division by zero
entry main (xs: []i32) : []i32 =
  scan (\_ b -> b) 0 (map (\x -> 100 / x) xs)
