-- tail and init of an empty array are slice failures.
-- ==
-- input { [3, 1] }        output { [1] [3] }
-- input { empty([0]i32) } error: out of bounds for array of shape \[0\]
entry main (xs: []i32) : ([]i32, []i32) = (tail xs, init xs)
