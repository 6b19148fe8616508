-- scatter into arrays of arrays (each value a row; out-of-range indices ignored), on the
-- host and inside a map, and scans of arrays of arrays inside a map (which run on the
-- host: Note [Maps whose arrays are sized inside] in codegen/program_gen.cpp).
-- ==
-- entry: scatter_rows
-- input { [[1, 2], [3, 4], [5, 6]] [2i64, -1i64, 0i64] [[7, 8], [9, 9], [0, 1]] }
-- output { [[0, 1], [3, 4], [7, 8]] }
-- ==
-- entry: scatter_in_map
-- input { [[1i64, 2i64], [3i64, 4i64]] [1i64, 0i64] }
-- output { [[[0i64, 0i64], [1i64, 2i64]], [[3i64, 4i64], [0i64, 0i64]]] }
-- ==
-- entry: scan_in_map
-- input { [[[1, 2], [3, 4], [5, 6]], [[0, 1], [0, 1], [0, 1]]] }
-- output { [[[1, 2], [4, 6], [9, 12]], [[0, 1], [0, 2], [0, 3]]] }
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 2147483647]]] }
-- output { [[[1, 2], [4, 6]], [[5, 6], [12, -2147483643]]] }

entry scatter_rows [n] [m] [k] (dest: *[n][m]i32) (is: [k]i64) (vs: [k][m]i32) : [n][m]i32 =
  scatter dest is vs

entry scatter_in_map [n] [m] (xss: [n][m]i64) (is: [n]i64) : [n][2][m]i64 =
  map2 (\xs i -> scatter (replicate 2 (replicate m 0)) [i] [xs]) xss is

entry scan_in_map [n] [m] [k] (xsss: [n][m][k]i32) : [n][m][k]i32 =
  map (scan (map2 (+)) (replicate k 0)) xsss
