-- a..s...b with s < a counts downwards.
-- ==
-- input { 10 8 1 } output { [10, 8, 6, 4, 2] }
-- input { 10 7 1 } output { [10, 7, 4, 1] }
-- input { 0 -1 -3 } output { [0, -1, -2, -3] }
-- input { 4 2 4 } output { [4] }
entry main (a: i32) (s: i32) (b: i32) : []i32 = a..s...b
