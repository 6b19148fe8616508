-- reduce_comm with a commutative operator on tuples (sum and count of positive elements).
-- ==
-- input { [3, -1, 4, -1, 5] }  output { 12 3 }
-- input { empty([0]i32) }      output { 0 0 }
entry main (xs: []i32) : (i32, i32) =
  reduce_comm (\(s1, c1) (s2, c2) -> (s1 + s2, c1 + c2)) (0, 0)
              (map (\x -> if x > 0 then (x, 1) else (0, 0)) xs)
