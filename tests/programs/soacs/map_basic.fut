-- map with an anonymous function: normal, single-element and empty arrays.
-- ==
-- input { [1, 2, 3, 4] }   output { [3, 5, 7, 9] }
-- input { [-5] }           output { [-9] }
-- input { empty([0]i32) }  output { empty([0]i32) }
entry main (xs: []i32) : []i32 = map (\x -> 2 * x + 1) xs
