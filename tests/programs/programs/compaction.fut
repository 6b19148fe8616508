-- Stream compaction by hand: flags, exclusive offsets from a scan, and a scatter with
-- index -1 (ignored) for dropped elements; must agree with filter.
-- ==
-- input { [4, -1, 0, 7, -3, 8] }  output { [4, 0, 7, 8] [4, 0, 7, 8] }
-- input { [-1, -2] }              output { empty([0]i32) empty([0]i32) }
-- input { empty([0]i32) }         output { empty([0]i32) empty([0]i32) }
entry main [n] (xs: [n]i32) : ([]i32, []i32) =
  let flags = map (\x -> if x >= 0 then 1i64 else 0i64) xs
  let offs = scan (+) 0 flags
  let count = if n == 0 then 0 else offs[n - 1]
  let is = map2 (\f o -> if f == 1 then o - 1 else -1) flags offs
  let out = scatter (replicate count 0) is xs
  in (out, filter (>= 0) xs)
