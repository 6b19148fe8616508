-- Invalid ranges fail with the range printed in Futhark's form (a..<b, a...b, a..s...b).
-- ==
-- entry: upto
-- input { 2 5 } output { [2, 3, 4] }
-- input { 5 5 } output { empty([0]i32) }
-- input { 5 2 } error: Range 5\.\.<2 is invalid\.[\s\S]*range_invalid\.fut:21:

-- ==
-- entry: incl
-- input { 2 4 } output { [2, 3, 4] }
-- input { 3 3 } output { [3] }
-- input { 3 2 } error: Range 3\.\.\.2 is invalid\.[\s\S]*range_invalid\.fut:22:

-- ==
-- entry: stepped
-- input { 1 3 8 } output { [1, 3, 5, 7] }
-- input { 8 6 1 } output { [8, 6, 4, 2] }
-- input { 1 1 8 } error: Range 1\.\.1\.\.\.8 is invalid\.[\s\S]*range_invalid\.fut:23:
-- input { 1 3 0 } error: Range 1\.\.3\.\.\.0 is invalid\.
-- input { 8 6 9 } error: Range 8\.\.6\.\.\.9 is invalid\.
entry upto (a: i32) (b: i32) : []i32 = a..<b
entry incl (a: i32) (b: i32) : []i32 = a...b
entry stepped (a: i32) (s: i32) (b: i32) : []i32 = a..s...b
