-- filter and partition of arrays of arrays: whole rows kept or split off, in order, for
-- 2-D and 3-D arrays, a tuple of a 2-D and a 1-D array, none kept, all kept and empty.
-- ==
-- entry: keep_rows
-- input { [[1, 2], [3, -4], [5, 6], [-7, 8]] }
-- output { [[1, 2], [5, 6]] }
-- input { [[-1, 2], [3, -4]] } output { empty([0][2]i32) }
-- input { empty([0][3]i32) } output { empty([0][3]i32) }

-- ==
-- entry: keep_blocks
-- input { [[[1f32, 2f32], [3f32, 4f32]], [[0f32, 0f32], [0f32, 0f32]], [[5f32, 6f32], [7f32, 8f32]]] }
-- output { [[[1f32, 2f32], [3f32, 4f32]], [[5f32, 6f32], [7f32, 8f32]]] }

-- ==
-- entry: split_rows
-- input { [[1, 2], [3, -4], [5, 6], [-7, 8]] [10, 20, 30, 40] }
-- output { [[1, 2], [5, 6]] [10, 30] [[3, -4], [-7, 8]] [20, 40] }
-- input { [[1, 1]] [7] } output { [[1, 1]] [7] empty([0][2]i32) empty([0]i32) }

entry keep_rows [n][m] (xss: [n][m]i32) : [][m]i32 =
  filter (\r -> all (\x -> x > 0) r) xss

entry keep_blocks [n] (xsss: [n][2][2]f32) : [][2][2]f32 =
  filter (\b -> f32.sum (flatten b) != 0) xsss

entry split_rows [n] (xss: [n][2]i32) (ys: [n]i32) : ([][2]i32, []i32, [][2]i32, []i32) =
  let (yes, no) = partition (\(r, _) -> r[0] > 0 && r[1] > 0) (zip xss ys)
  let (a, b) = unzip yes
  let (c, d) = unzip no
  in (a, b, c, d)
