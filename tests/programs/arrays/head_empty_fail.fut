-- head of an empty array is an index failure (index 0 into shape [0]).
-- ==
-- input { [3, 1] }        output { 3 }
-- input { empty([0]i32) } error: Index \[0\] out of bounds for array of shape \[0\]
entry main (xs: []i32) : i32 = head xs
