-- Several entry points in one program, sharing a helper function.
-- ==
-- entry: main
-- input { [1, 2, 3] }  output { 6 }
-- input { empty([0]i32) }  output { 0 }

-- ==
-- entry: twice
-- input { [1, 2, 3] }  output { [2, 4, 6] }

-- ==
-- entry: count_if_above
-- input { 2 [1, 2, 3, 4] }  output { 2i64 }
def double (x: i32) : i32 = 2 * x

entry main (xs: []i32) : i32 = reduce (+) 0 xs

entry twice (xs: []i32) : []i32 = map double xs

entry count_if_above (t: i32) (xs: []i32) : i64 = length (filter (> t) xs)
