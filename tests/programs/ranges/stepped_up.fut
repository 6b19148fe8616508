-- a..s...b with s > a counts upwards in steps of s-a, stopping at or before b.
-- ==
-- input { 0 3 10 } output { [0, 3, 6, 9] }
-- input { 0 3 9 } output { [0, 3, 6, 9] }
-- input { 5 7 5 } output { [5] }
-- input { -4 -1 4 } output { [-4, -1, 2] }
entry main (a: i32) (s: i32) (b: i32) : []i32 = a..s...b
