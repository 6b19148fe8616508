-- Indices that look like those kerb's range analysis proves in range (an iota element
-- into an array of that size, docs/CHECKS.md Note [Proved in range]) but are not: each
-- must keep its bounds check and fail, with the interpreter's message. The in-range
-- forms are in tests/programs/indexing/proved_in_range.fut.
-- ==
-- entry: iota_longer
-- input { [1, 2, 3] } error: Index \[3\] out of bounds for array of shape \[3\]
-- ==
-- entry: iota_other_size
-- input { [1, 2] [1, 2, 3] } error: Index \[2\] out of bounds for array of shape \[2\]
-- input { [1, 2, 3] [1, 2] } output { [1, 2] }
-- ==
-- entry: plus_one
-- input { [1, 2, 3] } error: Index \[3\] out of bounds for array of shape \[3\]
-- ==
-- entry: minus_one
-- input { [1, 2, 3] } error: Index \[-1\] out of bounds for array of shape \[3\]
-- ==
-- entry: loop_other_bound
-- input { [1, 2, 3] 4i64 } error: Index \[3\] out of bounds for array of shape \[3\]
-- input { [1, 2, 3] 3i64 } output { 6 }
-- ==
-- entry: loop_to_n_plus_one
-- input { [1, 2, 3] } error: Index \[3\] out of bounds for array of shape \[3\]
-- ==
-- entry: clamp_min_to_n
-- input { [1, 2, 3] } error: Index \[3\] out of bounds for array of shape \[3\]
-- ==
-- entry: clamp_max_below_zero
-- input { [1, 2, 3] } error: Index \[-1\] out of bounds for array of shape \[3\]
-- ==
-- entry: clamp_wrong_way
-- input { [1, 2, 3] } error: Index \[3\] out of bounds for array of shape \[3\]
-- ==
-- entry: flat_swapped
-- input { [[1, 2, 3], [4, 5, 6]] } error: Index \[[0-9]+, [0-9]+\] out of bounds for array of shape \[2\]\[3\]
-- ==
-- entry: flat_mod_other
-- input { [[1, 2, 3], [4, 5, 6]] } error: Index \[[0-9]+, [0-9]+\] out of bounds for array of shape \[2\]\[3\]
-- ==
-- entry: guard_one_side
-- input { [1, 2, 3] } error: Index \[3\] out of bounds for array of shape \[3\]
-- ==
-- entry: guard_other_side
-- input { [1, 2, 3] } error: Index \[-1\] out of bounds for array of shape \[3\]
-- ==
-- entry: zip_other_array
-- input { [1, 2, 3] [1, 2] } error: Index \[2\] out of bounds for array of shape \[2\]
-- ==
-- entry: nested_swapped
-- input { [[1, 2, 3], [4, 5, 6]] } error: Index \[[0-9]+, [0-9]+\] out of bounds for array of shape \[2\]\[3\]
-- ==
-- entry: rows_of_other
-- input { [[1, 2, 3], [4, 5, 6]] [1, 2] } error: Index \[2\] out of bounds for array of shape \[2\]

-- iota (n + 1) into [n]
entry iota_longer [n] (xs: [n]i32) : []i32 = map (\i -> xs[i]) (iota (n + 1))

-- iota m into a dimension n
entry iota_other_size [n][m] (xs: [n]i32) (_ys: [m]i32) : []i32 = map (\i -> xs[i]) (iota m)

entry plus_one [n] (xs: [n]i32) : []i32 = map (\i -> xs[i + 1]) (iota n)

entry minus_one [n] (xs: [n]i32) : []i32 = map (\i -> xs[i - 1]) (iota n)

-- a loop to e where e is not the dimension
entry loop_other_bound [n] (xs: [n]i32) (e: i64) : i32 = loop s = 0 for k < e do s + xs[k]

entry loop_to_n_plus_one [n] (xs: [n]i32) : i32 = loop s = 0 for k < n + 1 do s + xs[k]

-- clamps that do not clamp into [0, n - 1]
entry clamp_min_to_n [n] (xs: [n]i32) : []i32 = map (\i -> xs[i64.min n (i + 1)]) (iota n)

entry clamp_max_below_zero [n] (xs: [n]i32) : []i32 =
  map (\i -> xs[i64.max (-1) (i - 1)]) (iota n)

entry clamp_wrong_way [n] (xs: [n]i32) : []i32 = map (\i -> xs[i64.max (n - 1) (i + 1)]) (iota n)

-- the row and column of a flattened index, with the sizes the wrong way round
entry flat_swapped [n][m] (a: [n][m]i32) : []i32 = map (\t -> a[t / n, t % n]) (iota (n * m))

entry flat_mod_other [n][m] (a: [n][m]i32) : []i32 = map (\t -> a[t / m, t % (m + 1)]) (iota (n * m))

-- a stencil guard that covers one edge only
entry guard_one_side [n] (xs: [n]i32) : []i32 =
  map (\i -> if i == 0 then xs[i] else xs[i] + xs[i + 1]) (iota n)

entry guard_other_side [n] (xs: [n]i32) : []i32 =
  map (\i -> if i == n - 1 then xs[i] else xs[i - 1] + xs[i + 1]) (iota n)

-- the iota element of a zip indexing another array than the one of its size
entry zip_other_array [n][m] (xs: [n]i32) (ys: [m]i32) : []i32 =
  map2 (\i x -> x + ys[i]) (iota n) xs

entry nested_swapped [n][m] (a: [n][m]i32) : [][]i32 =
  map (\i -> map (\j -> a[j, i]) (iota m)) (iota n)

-- rows of one array, indices into another
entry rows_of_other [n][m] (a: [n][m]i32) (ys: []i32) : [][]i32 =
  map (\row -> map (\j -> row[j] + ys[j]) (iota m)) a
