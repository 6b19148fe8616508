-- An out-of-bounds index inside a scan operator fails at run time. The operator composes
-- lookup tables of length 3: (f `op` g)[x] = g[f[x]], which is associative.
-- ==
-- input { [1i64, 2i64, 0i64] }  output { [1i64, 0i64, 0i64] }
-- input { [1i64, 3i64, 0i64] }  error: Index \[3\] out of bounds for array of shape \[3\]
def op (f: [3]i64) (g: [3]i64) : [3]i64 = map (\x -> g[x]) f

entry main [n] (ts: [n]i64) : [n]i64 =
  let tabs = map (\t -> [t, (t + 1) % 3, (t + 2) % 3]) ts
  in map (\tab -> tab[0]) (scan op [0, 1, 2] tabs)
