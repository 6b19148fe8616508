-- Module reductions maximum/minimum: empty input gives lowest/highest.
-- ==
-- input { [3, -7, 12, 0] [2.5f32, -1.0f32] [200u8, 3u8, 255u8] }
-- output { 12 -7 2.5f32 -1.0f32 255u8 3u8 }
-- input { empty([0]i32) empty([0]f32) empty([0]u8) }
-- output { -2147483648 2147483647 -f32.inf f32.inf 0u8 255u8 }
entry main (xs: []i32) (fs: []f32) (us: []u8) : (i32, i32, f32, f32, u8, u8) =
  (i32.maximum xs, i32.minimum xs, f32.maximum fs, f32.minimum fs, u8.maximum us, u8.minimum us)
