-- zip and unzip are inverses; zip2 is zip.
-- ==
-- input { [1, 2, 3] [1.5f32, 2.5f32, 3.5f32] }  output { [1, 2, 3] [1.5f32, 2.5f32, 3.5f32] [3, 2, 1] [3.5f32, 2.5f32, 1.5f32] }
-- input { empty([0]i32) empty([0]f32) }        output { empty([0]i32) empty([0]f32) empty([0]i32) empty([0]f32) }
entry main [n] (xs: [n]i32) (ys: [n]f32) : ([n]i32, [n]f32, [n]i32, [n]f32) =
  let (a, b) = unzip (zip xs ys)
  let (c, d) = unzip2 (reverse (zip2 xs ys))
  in (a, b, c, d)
