-- zip4/unzip4 and zip5/unzip5 round trips with a map in between.
-- ==
-- input { [1, 2] [3, 4] [5, 6] [7, 8] [9, 10] }
-- output { [2, 3] [4, 5] [6, 7] [8, 9] [9, 12] [3, 4] [5, 6] [7, 8] [9, 10] }
entry main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) (e: [n]i32) =
  let (p, q, r, s) = unzip4 (map (\(w, x, y, z) -> (w + 1, x + 1, y + 1, z + 1)) (zip4 a b c d))
  let (_, t, u, v, w) = unzip5 (zip5 a b c d e)
  in (p, q, r, s, map2 (+) e (map (\x -> x - 1 + x - 1) a), t, u, v, w)
