-- Operator sections of many operators: left and right sections, comparisons, bitwise,
-- and a parenthesised operator passed to reduce and scan.
-- ==
-- input { [1, 6, 12] }
-- output { [0, 3, 6] [12, 2, 1] [true, false, false] [2, 12, 24] [0, 6, 4] [2, 2, 1] 19 [1, 7, 19] }
entry main [n] (xs: [n]i32) =
  ( map (/ 2) xs, map (12 /) xs, map (< 5) xs, map (<< 1) xs
  , map (& 6) xs, map (% 5) (map (3 -) xs), reduce (+) 0 xs, scan (+) 0 xs )
