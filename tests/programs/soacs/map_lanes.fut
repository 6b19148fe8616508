-- Maps of scalars run four elements per thread with vector loads and stores where the
-- arrays are aligned (docs/CODEGEN.md): every length around multiples of four (the tail
-- runs element by element), every element size, views that start off alignment (a
-- slice from 1 or 3), and maps fused into the map that is vectorised.
-- ==
-- entry: lengths
-- input { empty([0]f32) } output { empty([0]f32) }
-- input { [1f32] } output { [3f32] }
-- input { [1f32, 2f32, 3f32] } output { [3f32, 5f32, 7f32] }
-- input { [1f32, 2f32, 3f32, 4f32] } output { [3f32, 5f32, 7f32, 9f32] }
-- input { [1f32, 2f32, 3f32, 4f32, 5f32] } output { [3f32, 5f32, 7f32, 9f32, 11f32] }
-- input { [0f32, 1f32, 2f32, 3f32, 4f32, 5f32, 6f32, 7f32, 8f32] }
-- output { [1f32, 3f32, 5f32, 7f32, 9f32, 11f32, 13f32, 15f32, 17f32] }
entry lengths (xs: []f32) : []f32 = map (\x -> 2 * x + 1) xs

-- ==
-- entry: types
-- input { [true, false, true, true, false, true, false]
--         [1i8, -2i8, 3i8, -4i8, 5i8, -6i8, 127i8]
--         [1i16, -2i16, 3i16, -4i16, 5i16, -6i16, 7i16]
--         [1f16, 2f16, 3f16, 4f16, 5f16, 6f16, 7f16]
--         [1i64, -2i64, 3i64, -4i64, 5i64, -6i64, 9223372036854775807i64]
--         [0.5f64, 1.5f64, 2.5f64, 3.5f64, 4.5f64, 5.5f64, 6.5f64]
--         [1u8, 2u8, 3u8, 4u8, 5u8, 6u8, 255u8] }
-- output { [false, true, false, false, true, false, true]
--          [2i8, -4i8, 6i8, -8i8, 10i8, -12i8, -2i8]
--          [0i16, -3i16, 2i16, -5i16, 4i16, -7i16, 6i16]
--          [2f16, 4f16, 6f16, 8f16, 10f16, 12f16, 14f16]
--          [2i64, -1i64, 4i64, -3i64, 6i64, -5i64, -9223372036854775808i64]
--          [1.5f64, 3.5f64, 5.5f64, 7.5f64, 9.5f64, 11.5f64, 13.5f64]
--          [2u8, 3u8, 4u8, 5u8, 6u8, 7u8, 0u8] }
entry types (bs: []bool) (a: []i8) (b: []i16) (c: []f16) (d: []i64) (e: []f64) (f: []u8)
  : ([]bool, []i8, []i16, []f16, []i64, []f64, []u8) =
  (map (\x -> !x) bs, map (* 2) a, map (\x -> x - 1) b, map (* 2) c, map (+ 1) d,
   map (\x -> 2 * x + 0.5) e, map (+ 1) f)

-- Views that start one or three elements in, and two arrays of different sizes of
-- element read together.
-- ==
-- entry: views
-- input { [0i32, 1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32, 9i32, 10i32]
--         [0f64, 1f64, 2f64, 3f64, 4f64, 5f64, 6f64, 7f64, 8f64, 9f64, 10f64] }
-- output { [1f64, 3f64, 5f64, 7f64, 9f64, 11f64, 13f64, 15f64]
--          [3f64, 5f64, 7f64, 9f64, 11f64, 13f64, 15f64, 17f64] }
entry views (xs: []i32) (ys: []f64) : ([]f64, []f64) =
  let a = map2 (\x y -> f64.i32 x + y) (xs[1:9] :> [8]i32) ys[0:8]
  let b = map2 (\x y -> f64.i32 x + y) (xs[3:11] :> [8]i32) ys[0:8]
  in (a, b)

-- A chain of maps and a map of two results, with a gather from a free array.
-- ==
-- entry: fused
-- input { [3i64, 0i64, 1i64, 2i64, 4i64, 4i64] [10i32, 20i32, 30i32, 40i32, 50i32] }
-- output { [41i32, 11i32, 21i32, 31i32, 51i32, 51i32] [6i64, 0i64, 2i64, 4i64, 8i64, 8i64] }
entry fused (is: []i64) (t: []i32) : ([]i32, []i64) =
  let js = map (\i -> i * 2) is
  in unzip (map2 (\i j -> (t[i] + 1, j)) is js)
