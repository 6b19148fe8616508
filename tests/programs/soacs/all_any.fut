-- all and any, including the empty array (all: true, any: false).
-- ==
-- input { [2, 4, 6] }     output { true true false }
-- input { [2, 3, 6] }     output { false true true }
-- input { [1, 3] }        output { false false true }
-- input { empty([0]i32) } output { true false false }
entry main (xs: []i32) : (bool, bool, bool) =
  (all (\x -> x % 2 == 0) xs, any (\x -> x % 2 == 0) xs, any (\x -> x % 2 != 0) xs)
