-- reduce with (+), (*) and an anonymous function; empty arrays give the neutral element.
-- ==
-- input { [1, 2, 3, 4] }  output { 10 24 30 }
-- input { [7] }           output { 7 7 49 }
-- input { empty([0]i32) } output { 0 1 0 }
entry main (xs: []i32) : (i32, i32, i32) =
  (reduce (+) 0 xs, reduce (*) 1 xs, reduce (\a b -> a + b) 0 (map (\x -> x * x) xs))
