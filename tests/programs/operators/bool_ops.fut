-- Boolean &&, ||, ==, != applied elementwise, and ! on a bool.
-- ==
-- input { [true, false, true] [true, true, false] }
-- output { [true, false, false] [true, true, true] [true, false, false] [false, true, true] [false, true, false] }
-- input { empty([0]bool) empty([0]bool) }
-- output { empty([0]bool) empty([0]bool) empty([0]bool) empty([0]bool) empty([0]bool) }
entry main [n] (a: [n]bool) (b: [n]bool) : ([]bool, []bool, []bool, []bool, []bool) =
  (map2 (\x y -> x && y) a b, map2 (\x y -> x || y) a b,
   map2 (\x y -> x == y) a b, map2 (\x y -> x != y) a b, map (\x -> !x) a)
