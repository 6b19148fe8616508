-- Bad slices with an omitted start or end, and with a zero or too-large stride.
-- ==
-- entry: upto
-- input { [1, 2, 3] 3i64 } output { [1, 2, 3] }
-- input { [1, 2, 3] 4i64 } error: Index \[:4\] out of bounds for array of shape \[3\]\.[\s\S]*bad_slice_forms\.fut:16:

-- ==
-- entry: from
-- input { [1, 2, 3] 3i64 } output { empty([0]i32) }
-- input { [1, 2, 3] 4i64 } error: Index \[4:\] out of bounds for array of shape \[3\]\.[\s\S]*bad_slice_forms\.fut:17:

-- ==
-- entry: strided
-- input { [1, 2, 3] 2i64 } output { [1, 3] }
-- input { [1, 2, 3] 0i64 } error: Index \[0:3:0\] out of bounds for array of shape \[3\]\.[\s\S]*bad_slice_forms\.fut:18:
entry upto (xs: []i32) (j: i64) : []i32 = xs[:j]
entry from (xs: []i32) (i: i64) : []i32 = xs[i:]
entry strided (xs: []i32) (s: i64) : []i32 = xs[0:3:s]
