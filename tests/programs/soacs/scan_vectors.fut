-- The single-pass scan's 16-byte accesses (Note [Single-pass tiles in registers] in
-- codegen/scan_kernels.cpp): a full warp's part of the arrays a scan reads (96 elements
-- on the CPU device, 768 on the GPU) is read a group of four elements at a time when
-- they and the result are aligned, else one at a time. So: an array read whole; a view
-- one element in (`xs[1:]`, not aligned: one at a time); maps fused into the scan (two
-- arrays; a 1-byte bool result; an index read from data, failing in the middle of a
-- part and in the last element of a tile, with the interpreter's message); a scan of
-- i8 (groups of four bytes). Random sizes around the tiles, checked against the
-- reference interpreter (`auto output`).
-- ==
-- entry: plain sliced
-- random input { [1]i32 } auto output
-- random input { [96]i32 } auto output
-- random input { [97]i32 } auto output
-- random input { [193]i32 } auto output
-- random input { [3073]i32 } auto output
-- random input { [100003]i32 } auto output
-- ==
-- entry: mapped
-- random input { [193]f32 [193]f32 } auto output
-- random input { [3072]f32 [3072]f32 } auto output
-- random input { [20000]f32 [20000]f32 } auto output
-- ==
-- entry: bools bytes
-- random input { [95]i8 } auto output
-- random input { [384]i8 } auto output
-- random input { [100001]i8 } auto output
-- ==
-- entry: indexed
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32, 9i32, 10i32] [5i64, 2i64, 6i64, 0i64, 1i64, 8i64, 1i64, 5i64, 9i64, 0i64, 8i64, 3i64, 0i64, 1i64, 6i64, 6i64, 1i64, 3i64, 1i64, 8i64, 6i64, 0i64, 9i64, 1i64, 3i64, 9i64, 0i64, 9i64, 9i64, 6i64, 0i64, 3i64, 0i64, 8i64, 2i64, 4i64, 6i64, 2i64, 8i64, 1i64, 9i64, 4i64, 8i64, 2i64, 1i64, 9i64, 9i64, 3i64, 5i64, 1i64, 8i64, 1i64, 9i64, 0i64, 9i64, 3i64, 7i64, 8i64, 6i64, 5i64, 7i64, 9i64, 7i64, 5i64, 4i64, 3i64, 2i64, 3i64, 1i64, 9i64, 4i64, 8i64, 7i64, 5i64, 7i64, 4i64, 9i64, 1i64, 1i64, 8i64, 6i64, 2i64, 5i64, 2i64, 7i64, 6i64, 0i64, 1i64, 8i64, 9i64, 5i64, 5i64, 5i64, 9i64, 7i64, 9i64, 7i64, 1i64, 1i64, 4i64, 7i64, 1i64, 0i64, 4i64, 9i64, 7i64, 4i64, 6i64, 5i64, 0i64, 7i64, 5i64, 2i64, 9i64, 1i64, 7i64, 0i64, 3i64, 4i64, 2i64, 3i64, 6i64, 6i64, 7i64, 1i64, 2i64, 7i64, 6i64, 8i64, 4i64, 2i64, 6i64, 8i64, 4i64, 6i64, 5i64, 6i64, 3i64, 2i64, 1i64, 2i64, 2i64, 3i64, 3i64, 0i64, 7i64, 9i64, 2i64, 4i64, 4i64, 0i64, 2i64, 6i64, 8i64, 5i64, 9i64, 9i64, 5i64, 2i64, 8i64, 9i64, 0i64, 7i64, 8i64, 6i64, 6i64, 6i64, 6i64, 1i64, 7i64, 6i64, 0i64, 3i64, 1i64, 3i64, 7i64, 2i64, 1i64, 5i64, 9i64, 0i64, 1i64, 0i64, 9i64, 2i64, 8i64, 1i64, 5i64, 9i64, 0i64, 1i64, 3i64, 9i64, 6i64, 2i64, 4i64, 5i64, 9i64, 5i64, 7i64, 1i64, 1i64, 7i64, 7i64, 7i64, 7i64, 4i64, 1i64, 2i64, 1i64, 5i64, 4i64, 7i64, 2i64, 8i64, 0i64, 3i64, 8i64, 5i64, 2i64, 8i64, 0i64, 8i64, 4i64, 1i64, 4i64, 8i64, 5i64, 2i64, 5i64, 3i64, 8i64, 8i64, 8i64, 5i64, 3i64, 9i64, 3i64, 3i64, 6i64, 3i64, 3i64, 8i64, 7i64, 5i64, 0i64, 0i64, 4i64, 7i64, 4i64, 3i64, 9i64, 5i64, 7i64, 5i64, 5i64, 1i64, 3i64, 1i64, 3i64, 7i64, 3i64, 5i64, 3i64, 7i64, 9i64, 9i64, 0i64, 7i64, 5i64, 1i64, 1i64, 6i64, 3i64, 7i64, 2i64, 6i64, 5i64, 1i64, 6i64, 7i64, 6i64, 1i64, 2i64, 2i64, 2i64, 0i64, 2i64, 9i64, 7i64, 2i64, 9i64, 9i64, 7i64, 5i64, 2i64, 8i64, 8i64, 2i64, 0i64] } auto output
-- random input { [10]i32 [0]i64 } auto output
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32, 9i32, 10i32] [5i64, 2i64, 6i64, 0i64, 1i64, 8i64, 1i64, 5i64, 9i64, 0i64, 8i64, 3i64, 0i64, 1i64, 6i64, 6i64, 1i64, 3i64, 1i64, 8i64, 6i64, 0i64, 9i64, 1i64, 3i64, 9i64, 0i64, 9i64, 9i64, 6i64, 0i64, 3i64, 0i64, 8i64, 2i64, 4i64, 6i64, 2i64, 8i64, 1i64, 9i64, 4i64, 8i64, 2i64, 1i64, 9i64, 9i64, 3i64, 5i64, 1i64, 8i64, 1i64, 9i64, 0i64, 9i64, 3i64, 7i64, 8i64, 6i64, 5i64, 7i64, 9i64, 7i64, 5i64, 4i64, 3i64, 2i64, 3i64, 1i64, 9i64, 4i64, 8i64, 7i64, 5i64, 7i64, 4i64, 9i64, 1i64, 1i64, 8i64, 6i64, 2i64, 5i64, 2i64, 7i64, 6i64, 0i64, 1i64, 8i64, 9i64, 5i64, 5i64, 5i64, 9i64, 7i64, 9i64, 7i64, 1i64, 1i64, 4i64, 7i64, 1i64, 0i64, 4i64, 9i64, 7i64, 4i64, 6i64, 5i64, 0i64, 7i64, 5i64, 2i64, 9i64, 1i64, 7i64, 0i64, 3i64, 4i64, 2i64, 3i64, 6i64, 6i64, 7i64, 1i64, 2i64, 7i64, 6i64, 8i64, 4i64, 2i64, 6i64, 8i64, 4i64, 6i64, 5i64, 6i64, 3i64, 2i64, 1i64, 2i64, 2i64, 3i64, 3i64, 0i64, 7i64, 9i64, 2i64, 4i64, 4i64, 10i64, 2i64, 6i64, 8i64, 5i64, 9i64, 9i64, 5i64, 2i64, 8i64, 9i64, 0i64, 7i64, 8i64, 6i64, 6i64, 6i64, 6i64, 1i64, 7i64, 6i64, 0i64, 3i64, 1i64, 3i64, 7i64, 2i64, 1i64, 5i64, 9i64, 0i64, 1i64, 0i64, 9i64, 2i64, 8i64, 1i64, 5i64, 9i64, 0i64, 1i64, 3i64, 9i64, 6i64, 2i64, 4i64, 5i64, 9i64, 5i64, 7i64, 1i64, 1i64, 7i64, 7i64, 7i64, 7i64, 4i64, 1i64, 2i64, 1i64, 5i64, 4i64, 7i64, 2i64, 8i64, 0i64, 3i64, 8i64, 5i64, 2i64, 8i64, 0i64, 8i64, 4i64, 1i64, 4i64, 8i64, 5i64, 2i64, 5i64, 3i64, 8i64, 8i64, 8i64, 5i64, 3i64, 9i64, 3i64, 3i64, 6i64, 3i64, 3i64, 8i64, 7i64, 5i64, 0i64, 0i64, 4i64, 7i64, 4i64, 3i64, 9i64, 5i64, 7i64, 5i64, 5i64, 1i64, 3i64, 1i64, 3i64, 7i64, 3i64, 5i64, 3i64, 7i64, 9i64, 9i64, 0i64, 7i64, 5i64, 1i64, 1i64, 6i64, 3i64, 7i64, 2i64, 6i64, 5i64, 1i64, 6i64, 7i64, 6i64, 1i64, 2i64, 2i64, 2i64, 0i64, 2i64, 9i64, 7i64, 2i64, 9i64, 9i64, 7i64, 5i64, 2i64, 8i64, 8i64, 2i64, 0i64] }
--   error: Index \[10\] out of bounds for array of shape \[10\]
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32, 7i32, 8i32, 9i32, 10i32] [5i64, 2i64, 6i64, 0i64, 1i64, 8i64, 1i64, 5i64, 9i64, 0i64, 8i64, 3i64, 0i64, 1i64, 6i64, 6i64, 1i64, 3i64, 1i64, 8i64, 6i64, 0i64, 9i64, 1i64, 3i64, 9i64, 0i64, 9i64, 9i64, 6i64, 0i64, 3i64, 0i64, 8i64, 2i64, 4i64, 6i64, 2i64, 8i64, 1i64, 9i64, 4i64, 8i64, 2i64, 1i64, 9i64, 9i64, 3i64, 5i64, 1i64, 8i64, 1i64, 9i64, 0i64, 9i64, 3i64, 7i64, 8i64, 6i64, 5i64, 7i64, 9i64, 7i64, 5i64, 4i64, 3i64, 2i64, 3i64, 1i64, 9i64, 4i64, 8i64, 7i64, 5i64, 7i64, 4i64, 9i64, 1i64, 1i64, 8i64, 6i64, 2i64, 5i64, 2i64, 7i64, 6i64, 0i64, 1i64, 8i64, 9i64, 5i64, 5i64, 5i64, 9i64, 7i64, 9i64, 7i64, 1i64, 1i64, 4i64, 7i64, 1i64, 0i64, 4i64, 9i64, 7i64, 4i64, 6i64, 5i64, 0i64, 7i64, 5i64, 2i64, 9i64, 1i64, 7i64, 0i64, 3i64, 4i64, 2i64, 3i64, 6i64, 6i64, 7i64, 1i64, 2i64, 7i64, 6i64, 8i64, 4i64, 2i64, 6i64, 8i64, 4i64, 6i64, 5i64, 6i64, 3i64, 2i64, 1i64, 2i64, 2i64, 3i64, 3i64, 0i64, 7i64, 9i64, 2i64, 4i64, 4i64, 0i64, 2i64, 6i64, 8i64, 5i64, 9i64, 9i64, 5i64, 2i64, 8i64, 9i64, 0i64, 7i64, 8i64, 6i64, 6i64, 6i64, 6i64, 1i64, 7i64, 6i64, 0i64, 3i64, 1i64, 3i64, 7i64, 2i64, 1i64, 5i64, 9i64, 0i64, 1i64, 0i64, 9i64, 2i64, 8i64, 1i64, 5i64, 9i64, 0i64, 1i64, -1i64, 9i64, 6i64, 2i64, 4i64, 5i64, 9i64, 5i64, 7i64, 1i64, 1i64, 7i64, 7i64, 7i64, 7i64, 4i64, 1i64, 2i64, 1i64, 5i64, 4i64, 7i64, 2i64, 8i64, 0i64, 3i64, 8i64, 5i64, 2i64, 8i64, 0i64, 8i64, 4i64, 1i64, 4i64, 8i64, 5i64, 2i64, 5i64, 3i64, 8i64, 8i64, 8i64, 5i64, 3i64, 9i64, 3i64, 3i64, 6i64, 3i64, 3i64, 8i64, 7i64, 5i64, 0i64, 0i64, 4i64, 7i64, 4i64, 3i64, 9i64, 5i64, 7i64, 5i64, 5i64, 1i64, 3i64, 1i64, 3i64, 7i64, 3i64, 5i64, 3i64, 7i64, 9i64, 9i64, 0i64, 7i64, 5i64, 1i64, 1i64, 6i64, 3i64, 7i64, 2i64, 6i64, 5i64, 1i64, 6i64, 7i64, 6i64, 1i64, 2i64, 2i64, 2i64, 0i64, 2i64, 9i64, 7i64, 2i64, 9i64, 9i64, 7i64, 5i64, 2i64, 8i64, 8i64, 2i64, 0i64] }
--   error: Index \[-1\] out of bounds for array of shape \[10\]

entry plain (xs: []i32) : []i32 = scan (+) 0 xs

entry sliced [n] (xs: [n]i32) : []i32 = if n == 0 then [] else scan (+) 0 xs[1:]

-- (Whole numbers: the sums are exact in any order.)
entry mapped [n] (xs: [n]f32) (ys: [n]f32) : [n]f32 =
  scan (+) 0 (map2 (\x y -> f32.floor ((x - y) * 8)) xs ys)

entry bools (xs: []i8) : []bool = scan (||) false (map (\x -> x > 100) xs)

entry bytes (xs: []i8) : []i8 = scan (+) 0 xs

entry indexed [m] (xs: [m]i32) (is: []i64) : []i32 = scan (+) 0 (map (\i -> xs[i]) is)
