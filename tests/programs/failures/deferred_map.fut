-- Data-dependent checks in map elements, which compiled code defers (docs/CHECKS.md,
-- Note [Deferred checks]): gathers through index arrays, divisions by data and asserts
-- on loaded values, failing in the first, a middle and the last element, report the
-- interpreter's message and values; the first failing check of an element in program
-- order wins, also over a later check that sees the failed value; and loops whose
-- bound or condition come from a failed load still end. One failing element per case,
-- so that every device reports the same failure.
-- ==
-- entry: gather3
-- input { [10, 20, 30] [2i64, 1i64, 0i64] [0i64, 1i64, 2i64, 1i64] } output { [30, 20, 10, 20] }
-- input { [10, 20, 30] [2i64, 1i64, 0i64] [3i64, 1i64, 2i64, 1i64] } error: Index \[3\] out of bounds for array of shape \[3\]
-- input { [10, 20, 30] [2i64, 5i64, 0i64] [0i64, 1i64, 2i64, 0i64] } error: Index \[5\] out of bounds for array of shape \[3\]
-- input { [10, 20, 30] [2i64, 1i64, 0i64] [0i64, 1i64, 2i64, -4i64] } error: Index \[-4\] out of bounds for array of shape \[3\]
-- ==
-- entry: divide
-- input { [7, 8, 9] [1, 2, 3] } output { [7, 4, 3] }
-- input { [7, 8, 9] [0, 2, 3] } error: division by zero
-- input { [7, 8, 9] [1, 0, 3] } error: division by zero
-- input { [7, 8, 9] [1, 2, 0] } error: division by zero
-- ==
-- entry: index_then_assert
-- input { [5, 6, 7] [0i64, 1i64, 2i64] } output { [5, 6, 7] }
-- input { [5, 6, 7] [0i64, 9i64, 2i64] } error: Index \[9\] out of bounds for array of shape \[3\]
-- input { [5, -6, 7] [0i64, 1i64, 2i64] } error: Assertion is false
-- ==
-- entry: assert_then_index
-- input { [5, 6, 7] [0i64, 1i64, 2i64] [1, 1, 1] } output { [5, 6, 7] }
-- input { [5, 6, 7] [0i64, 9i64, 2i64] [1, 0, 1] } error: Assertion is false
-- input { [5, 6, 7] [0i64, 9i64, 2i64] [1, 1, 1] } error: Index \[9\] out of bounds for array of shape \[3\]
-- ==
-- entry: index_then_divide
-- input { [5, 6, 7] [0i64, 1i64, 2i64] [1, 2, 3] } output { [5, 3, 2] }
-- input { [5, 6, 7] [0i64, 1i64, 3i64] [1, 2, 0] } error: Index \[3\] out of bounds for array of shape \[3\]
-- input { [5, 6, 7] [0i64, 1i64, 2i64] [1, 2, 0] } error: division by zero
-- ==
-- entry: for_bound_from_failed_load
-- input { [2i64, 3i64] [0i64, 1i64] } output { [2i64, 3i64] }
-- input { [2i64, 3i64] [0i64, 2i64] } error: Index \[2\] out of bounds for array of shape \[2\]
-- ==
-- entry: while_on_failed_load
-- input { [1, 2, 0] [0i64, 0i64] } output { [2i64, 2i64] }
-- input { [1, 2, 3] [0i64, 0i64] } error: Index \[3\] out of bounds for array of shape \[3\]
-- input { [1, 2, 0] [0i64, 5i64] } error: Index \[5\] out of bounds for array of shape \[3\]
-- ==
-- entry: scaled
-- input { 2f32 [1f32, 2f32, 3f32] [2i64, 0i64] } output { [6f32, 2f32] }
-- input { 2f32 [1f32, 2f32, 3f32] [2i64, 3i64] } error: Index \[3\] out of bounds for array of shape \[3\]
-- ==
-- entry: bsearch
-- input { [1, 3, 5, 7, 9] [0, 4, 9, 10] } output { [0i64, 2i64, 4i64, 5i64] }
-- input { empty([0]i32) [3, -1] } output { [0i64, 0i64] }

-- a[b[c[i]]]
entry gather3 (a: []i32) (b: []i64) (c: []i64) : []i32 = map (\i -> a[b[i]]) c

entry divide [n] (xs: [n]i32) (ds: [n]i32) : []i32 = map2 (/) xs ds

-- The assert sees a value loaded with a bad index: the index is reported.
entry index_then_assert (xs: []i32) (is: []i64) : []i32 =
  map (\i -> let v = xs[i] in assert (v > 0) v) is

entry assert_then_index [n] (xs: []i32) (is: [n]i64) (ok: [n]i32) : []i32 =
  map2 (\i o -> assert (o != 0) xs[i]) is ok

entry index_then_divide [n] (xs: []i32) (is: [n]i64) (ds: [n]i32) : []i32 =
  map2 (\i d -> xs[i] / d) is ds

-- A loop bound read with a bad index must not run for whatever that read gives.
entry for_bound_from_failed_load (ks: []i64) (is: []i64) : []i64 =
  map (\i -> loop acc = 0i64 for _j < ks[i] do acc + 1) is

-- Walks xs from start until a zero: with a bad start, or no zero, the walk reads out
-- of bounds, and must stop there.
entry while_on_failed_load (xs: []i32) (starts: []i64) : []i64 =
  map (\s -> loop j = s while xs[j] != 0 do j + 1) starts

-- A float scalar parameter used in the deferred work (its slow copy, outlined, takes
-- it as a truncated and bitcast parameter: once copied in the wrong order, an invalid
-- module for the GPU).
entry scaled (s: f32) (xs: []f32) (is: []i64) : []f32 = map (\i -> xs[i] * s) is

-- The number of keys below each query (keys sorted): a while loop whose index comes
-- from the data.
entry bsearch [n] (keys: [n]i32) (qs: []i32) : []i64 =
  map (\q -> let (lo, _) = loop (lo, hi) = (0i64, n) while lo < hi do
                             let mid = (lo + hi) / 2
                             in if keys[mid] < q then (mid + 1, hi) else (lo, mid)
             in lo) qs
