-- map1 is map; the prelude-style sum, product, maximum and minimum work on any numeric
-- element type (Futhark spells them i32.sum, f32.minimum, ...).
-- ==
-- input { [3, -1, 4, 1, 5] [2.5f32, -0.5f32] }
-- output { [6, -2, 8, 2, 10] 12 -60 5 -1 2.0f32 -0.5f32 }
-- input { empty([0]i32) empty([0]f32) }
-- output { empty([0]i32) 0 1 -2147483648 2147483647 0.0f32 f32.inf }
entry main (xs: []i32) (fs: []f32) =
  (map1 (* 2) xs, sum xs, product xs, maximum xs, minimum xs, sum fs, minimum fs)
