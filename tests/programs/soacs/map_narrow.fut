-- 32-bit map kernels (Note [32-bit map kernels] in codegen/narrow_index.cpp): a nested
-- map whose sizes the host tests to be small runs a kernel whose index arithmetic,
-- clamps, compares and element offsets are i32. Clamped 5-point stencils (hotspot's
-- shape) on sizes that cross the tiles' edges (9 x 130: a partial tile in both
-- directions; 17 x 33: whole rows; 300 x 1; 1 x 300), 1 x 1, 2 x 2, empty grids; a
-- transposed (strided) input; every neighbour weighted differently, so that a wrong
-- neighbour or a wrong clamp shows.
-- ==
-- entry: stencil
-- input { 9i64 130i64 } output @ data/map_narrow_stencil_9x130.out
-- input { 17i64 33i64 } output @ data/map_narrow_stencil_17x33.out
-- input { 300i64 1i64 } output @ data/map_narrow_stencil_300x1.out
-- input { 1i64 300i64 } output @ data/map_narrow_stencil_1x300.out
-- input { 1i64 1i64 } output { [[1i64]] }
-- input { 2i64 2i64 } output { [[3006i64, 2999i64], [-987i64, -994i64]] }
-- input { 0i64 5i64 } output { empty([0][5]i64) }
-- input { 3i64 0i64 } output { [empty([0]i64), empty([0]i64), empty([0]i64)] }
-- input { 0i64 0i64 } output { empty([0][0]i64) }
entry stencil (n: i64) (m: i64) : [n][m]i64 =
  let a = map (\i -> map (\j -> i * 1000 + j + 1) (iota m)) (iota n)
  in map (\r ->
            map (\c ->
                   a[r, c]
                   + 2 * a[i64.max 0 (r - 1), c]
                   + 3 * a[i64.min (n - 1) (r + 1), c]
                   + 4 * a[r, i64.max 0 (c - 1)]
                   + 5 * a[r, i64.min (m - 1) (c + 1)] - 14 * a[r, c] + r * 7 + c)
                (iota m))
         (iota n)

-- The same stencil over a transposed array (a strided view), of f32 as hotspot.
-- ==
-- entry: stencil_t
-- input { 130i64 9i64 } output @ data/map_narrow_stencil_t_130x9.out
-- input { 1i64 1i64 } output { [[1f32]] }
entry stencil_t (n: i64) (m: i64) : [m][n]f32 =
  let a = transpose (map (\i -> map (\j -> f32.i64 (i * 100 + j + 1)) (iota m)) (iota n))
  in map (\r ->
            map (\c ->
                   let t = a[r, c]
                   in t + (a[i64.max 0 (r - 1), c] + a[i64.min (m - 1) (r + 1), c] - 2 * t) / 4
                      + (a[r, i64.max 0 (c - 1)] + a[r, i64.min (n - 1) (c + 1)] - 2 * t) / 8)
                (iota n))
         (iota m)

-- Indices that fail inside the kernel report the same index as the interpreter: one
-- off the end at a partial tile's last column, one below zero (an unclamped r - 1 in
-- the first row), and an index of 2^32 + c, which wraps to c in 32 bits and must still
-- fail (the check compares it in 64 bits: its value cannot be proved to fit).
-- ==
-- entry: fail_at
-- input { 9i64 130i64 8i64 129i64 0i64 } error: Index \[8, 130\] out of bounds for array of shape \[9\]\[130\]
-- input { 9i64 130i64 0i64 5i64 -1i64 } error: Index \[-1, 5\] out of bounds for array of shape \[9\]\[130\]
-- input { 9i64 130i64 4i64 7i64 4294967296i64 } error: Index \[4, 4294967303\] out of bounds for array of shape \[9\]\[130\]
-- input { 9i64 130i64 4i64 7i64 -4294967296i64 } error: Index \[4, -4294967289\] out of bounds for array of shape \[9\]\[130\]
-- input { 9i64 130i64 9i64 0i64 1i64 } output @ data/map_narrow_fail_at_9x130.out
entry fail_at (n: i64) (m: i64) (fi: i64) (fj: i64) (d: i64) : [n][m]i64 =
  let a = map (\i -> map (\j -> i * 1000 + j) (iota m)) (iota n)
  in map (\r ->
            map (\c ->
                   let bad = r == fi && c == fj
                   let rr = if bad && d == -1 then r - 1 else r
                   let cc = if bad && d == 0 then c + 1 else if bad && d != -1 then c + d else c
                   in a[rr, cc] + a[i64.max 0 (r - 1), c])
                (iota m))
         (iota n)

-- Free i64 variables: a small one (the 32-bit kernel), and ones
-- beyond 2^30 (the 64-bit kernel: the host's test fails), whose clamp, products and sums
-- need 64 bits; the result shows whichever ran computed in 64 bits.
-- ==
-- entry: big
-- input { 5i64 7i64 3i64 } output @ data/map_narrow_big_small.out
-- input { 5i64 7i64 1099511627776i64 } output @ data/map_narrow_big_large.out
-- input { 5i64 7i64 -1099511627776i64 } output @ data/map_narrow_big_neg.out
entry big (n: i64) (m: i64) (k: i64) : [n][m]i64 =
  let a = map (\i -> map (\j -> i * 100 + j) (iota m)) (iota n)
  in map (\r ->
            map (\c -> a[r, i64.max 0 (i64.min (m - 1) (c % 4 + k))] + k * r + (k + c) * 2)
                (iota m))
         (iota n)
