-- Polynomial evaluation at many points: Horner's rule with foldl (coefficients from the
-- highest degree), checked against foldr over the lowest-degree-first coefficients and
-- against a map/reduce of powers.
-- ==
-- input { [2, -3, 0, 5] [0, 1, 2, -1, 3] }
-- output { [5, 4, 9, 0, 32] [5, 4, 9, 0, 32] [5, 4, 9, 0, 32] }
-- input { empty([0]i32) [1, 2] }  output { [0, 0] [0, 0] [0, 0] }
entry main [d][n] (cs: [d]i32) (xs: [n]i32) : ([n]i32, [n]i32, [n]i32) =
  let h1 = map (\x -> foldl (\acc c -> acc * x + c) 0 cs) xs
  let h2 = map (\x -> foldr (\c acc -> acc * x + c) 0 (reverse cs)) xs
  let h3 = map (\x -> reduce (+) 0 (map2 (\c k -> c * (loop p = 1 for _i < d - 1 - k do p * x)) cs (iota d))) xs
  in (h1, h2, h3)
