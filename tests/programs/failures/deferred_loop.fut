-- Checks in loops over data (a CSR row: `vals[s + j]`, `x[cols[s + j]]`), whose
-- affine checks compiled code makes once before the loop and whose indirect ones it
-- defers (docs/CHECKS.md, Notes [Deferred checks] and [Hoisted checks]): a failure in
-- the first, a middle and the last iteration, in the first, a middle and the last
-- element of the map, must be reported with the interpreter's message and values, and
-- the earlier of two failing checks (in iteration order, then program order) wins.
-- Each failing case has one failing element, so that every device reports the same.
-- ==
-- entry: csr
-- input { [0i64, 2i64, 2i64] [2i64, 2i64, 4i64] [0i64, 1i64, 2i64, 0i64] [1f32, 2f32, 3f32, 4f32] [10f32, 20f32, 30f32] }
-- output { [50f32, 0f32, 130f32] }
-- input { [0i64, 2i64, 2i64] [2i64, 2i64, 4i64] [3i64, 1i64, 2i64, 0i64] [1f32, 2f32, 3f32, 4f32] [10f32, 20f32, 30f32] }
-- error: Index \[3\] out of bounds for array of shape \[3\]
-- input { [0i64, 2i64, 2i64] [2i64, 2i64, 4i64] [0i64, 1i64, 2i64, 7i64] [1f32, 2f32, 3f32, 4f32] [10f32, 20f32, 30f32] }
-- error: Index \[7\] out of bounds for array of shape \[3\]
-- input { [0i64, 2i64, 2i64] [2i64, 2i64, 5i64] [0i64, 1i64, 2i64, 0i64] [1f32, 2f32, 3f32, 4f32] [10f32, 20f32, 30f32] }
-- error: Index \[4\] out of bounds for array of shape \[4\]
-- input { [-1i64, 2i64, 2i64] [2i64, 2i64, 4i64] [0i64, 1i64, 2i64, 0i64] [1f32, 2f32, 3f32, 4f32] [10f32, 20f32, 30f32] }
-- error: Index \[-1\] out of bounds for array of shape \[4\]
-- input { [0i64, 2i64, 1i64] [2i64, 2i64, 6i64] [0i64, 1i64, 2i64, 9i64] [1f32, 2f32, 3f32, 4f32] [10f32, 20f32, 30f32] }
-- error: Index \[9\] out of bounds for array of shape \[3\]
-- input { [0i64, 2i64, 1i64] [2i64, 2i64, 6i64] [0i64, 1i64, 2i64, 0i64] [1f32, 2f32, 3f32, 4f32] [10f32, 20f32, 30f32] }
-- error: Index \[4\] out of bounds for array of shape \[4\]
-- ==
-- entry: iterations
-- input { 0i64 5i64 [0, 1, 2, 3, 4] } output { [10, 10, 10] }
-- input { 0i64 6i64 [0, 1, 2, 3, 4] } error: Index \[5\] out of bounds for array of shape \[5\]
-- input { -1i64 3i64 [0, 1, 2, 3, 4] } error: Index \[-1\] out of bounds for array of shape \[5\]
-- input { 2i64 4i64 [0, 1, 2, 3, 4] } error: Index \[5\] out of bounds for array of shape \[5\]
-- input { 9223372036854775806i64 4i64 [0, 1, 2, 3, 4] } error: Index \[9223372036854775806\] out of bounds
-- ==
-- entry: backwards
-- input { [1, 2, 3, 4] 4i64 } output { [4321, 4321] }
-- input { [1, 2, 3, 4] 5i64 } error: Index \[4\] out of bounds for array of shape \[4\]
-- ==
-- entry: strided
-- input { [1, 2, 3, 4, 5, 6, 7] 1i64 3i64 } output { [12, 12] }
-- input { [1, 2, 3, 4, 5, 6, 7] 1i64 4i64 } error: Index \[7\] out of bounds for array of shape \[7\]
-- input { [1, 2, 3, 4, 5, 6, 7] -3i64 2i64 } error: Index \[-3\] out of bounds for array of shape \[7\]
-- ==
-- entry: first_of_two
-- input { [0, 1, 2, 3] [3i64, 3i64, 3i64, 3i64] 4i64 } output { [18, 18, 18] }
-- input { [0, 1, 2, 3] [0i64, 0i64, 9i64, 0i64, 0i64] 5i64 } error: Index \[9\] out of bounds for array of shape \[4\]
-- input { [0, 1, 2, 3] [0i64, 0i64, 0i64, 0i64, 0i64] 5i64 } error: Index \[4\] out of bounds for array of shape \[4\]
-- input { [0, 1, 2, 3] [0i64, 0i64] 3i64 } error: Index \[2\] out of bounds for array of shape \[2\]

-- y = A x for a CSR matrix whose rows are s[i] .. e[i] - 1.
entry csr [n][nnz] (s: [n]i64) (e: [n]i64) (cols: [nnz]i64) (vals: [nnz]f32) (x: []f32) : [n]f32 =
  map (\i -> loop acc = 0f32 for j < e[i] - s[i] do acc + vals[s[i] + j] * x[cols[s[i] + j]])
      (iota n)

-- Three rows (elements) reading xs[b + j] for j < k, with b offset per element.
entry iterations (b: i64) (k: i64) (xs: []i32) : []i32 =
  map (\r -> loop acc = 0 for j < k do acc + xs[b + r * 0 + j]) (iota 3)

-- A negative step: xs[k - 1 - j], digits in reverse.
entry backwards (xs: []i32) (k: i64) : []i32 =
  map (\_ -> loop acc = 0 for j < k do acc * 10 + xs[k - 1 - j]) (iota 2)

-- A step of 2 from b: xs[2 * j + b].
entry strided (xs: []i32) (b: i64) (k: i64) : []i32 =
  map (\_ -> loop acc = 0 for j < k do acc + xs[2 * j + b]) (iota 2)

-- Two checks per iteration, an indirect one (xs[ys[j]]) and affine ones (ys[j], xs[j]):
-- whichever fails in the earliest iteration is reported.
entry first_of_two (xs: []i32) (ys: []i64) (k: i64) : []i32 =
  map (\_ -> loop acc = 0 for j < k do acc + xs[ys[j]] + xs[j]) (iota 3)
