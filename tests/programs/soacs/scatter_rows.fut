-- scatter into arrays of arrays: whole rows written, rows at indices out of range left
-- out (as single elements are), 2-D and 3-D.
-- ==
-- entry: rows2
-- input { [[1, 2], [3, 4], [5, 6]] [2i64, -1i64, 0i64, 7i64] [[10, 11], [12, 13], [14, 15], [16, 17]] }
-- output { [[14, 15], [3, 4], [10, 11]] }
-- input { [[1, 2]] empty([0]i64) empty([0][2]i32) } output { [[1, 2]] }

-- ==
-- entry: rows3
-- input { 2i64 } output { [[[0f32, 0f32], [0f32, 0f32]], [[1f32, 1f32], [1f32, 1f32]]] }

entry rows2 [n][k] (xs: *[n][2]i32) (is: [k]i64) (vs: [k][2]i32) : [n][2]i32 =
  scatter xs is vs

entry rows3 (n: i64) : [n][2][2]f32 =
  scatter (replicate n (replicate 2 (replicate 2 0f32))) [n - 1, n] [replicate 2 (replicate 2 1f32), replicate 2 (replicate 2 9f32)]
