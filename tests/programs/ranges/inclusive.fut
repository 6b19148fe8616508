-- a...b includes both ends; a single-element range when a == b.
-- ==
-- input { 1 4 } output { [1, 2, 3, 4] }
-- input { -1 -1 } output { [-1] }
-- input { -3 0 } output { [-3, -2, -1, 0] }
entry main (a: i32) (b: i32) : []i32 = a...b
