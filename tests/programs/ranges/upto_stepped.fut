-- a..s..<b: a stepped range with an exclusive upper end.
-- ==
-- input { 0 2 7 } output { [0, 2, 4, 6] }
-- input { 0 2 6 } output { [0, 2, 4] }
-- input { 3 4 3 } output { empty([0]i32) }
-- input { 0 0 5 } error: Range 0\.\.0\.\.<5 is invalid\.
entry main (a: i32) (s: i32) (b: i32) : []i32 = a..s..<b
