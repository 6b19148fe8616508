-- Perfectly nested maps run in 2-D tiles (docs/CODEGEN.md, Note [2-D tiles of map
-- kernels] in codegen/thread_kernels.cpp): 32 columns x 8 rows, or whole rows when the
-- rows are short. Sizes that cross the tiles' edges: rows and columns not multiples of
-- the tile (130 columns: four tiles and two columns; 9 rows: a tile and one row), whole
-- rows of 33 (7 rows a tile) and of 1 (256 rows a tile), one row, one column, no
-- columns (each row's statements still run), no rows, exact multiples, and 257
-- columns. Every element says where it is, so a thread that took another's element
-- shows.
-- ==
-- entry: grid
-- input { 9i64 130i64 } output @ data/map_tiles_9x130.out
-- input { 17i64 33i64 } output @ data/map_tiles_17x33.out
-- input { 1i64 300i64 } output @ data/map_tiles_1x300.out
-- input { 300i64 1i64 } output @ data/map_tiles_300x1.out
-- input { 2i64 257i64 } output @ data/map_tiles_2x257.out
-- input { 16i64 64i64 } output @ data/map_tiles_16x64.out
-- input { 3i64 5i64 } output { [[0i64, 1i64, 2i64, 3i64, 4i64], [1000i64, 1001i64, 1002i64, 1003i64, 1004i64], [2000i64, 2001i64, 2002i64, 2003i64, 2004i64]] }
-- input { 1i64 1i64 } output { [[0i64]] }
-- input { 3i64 0i64 } output { [empty([0]i64), empty([0]i64), empty([0]i64)] }
-- input { 0i64 5i64 } output { empty([0][5]i64) }
-- input { 0i64 0i64 } output { empty([0][0]i64) }
entry grid (n: i64) (m: i64) : [n][m]i64 =
  map (\i -> map (\j -> i * 1000 + j) (iota m)) (iota n)

-- Rows of an input array, the outer statements reading another (an element per row),
-- and a sequential loop in the inner element (a matrix product with i64 entries).
-- ==
-- entry: product
-- input { 9i64 3i64 130i64 } output @ data/map_tiles_product_9x3x130.out
-- input { 33i64 4i64 7i64 } output @ data/map_tiles_product_33x4x7.out
-- input { 1i64 2i64 1i64 } output { [[-12i64]] }
-- input { 2i64 0i64 3i64 } output { [[0i64, 0i64, 0i64], [1i64, 1i64, 1i64]] }
entry product (n: i64) (k: i64) (p: i64) : [n][p]i64 =
  let a = map (\i -> map (\l -> i + 2 * l + 1) (iota k)) (iota n)
  let b = map (\l -> map (\j -> l * j - 3) (iota p)) (iota k)
  let off = map (\i -> i % 7) (iota n)
  in map2 (\row o -> map (\j -> o + reduce (+) 0 (map2 (\x l -> x * b[l, j]) row (iota k))) (iota p))
          a off

-- Failures in one element at a tile's edge report that element's values: the last
-- column of a partial tile, the last row, the last element of a whole-rows tile, the
-- only column; and in the statements before the inner map (every thread of the row
-- fails alike), also when the rows have no columns.
-- ==
-- entry: fail_at
-- input { 9i64 130i64 8i64 129i64 } error: Index \[259\] out of bounds for array of shape \[130\]
-- input { 9i64 130i64 7i64 31i64 } error: Index \[161\] out of bounds for array of shape \[130\]
-- input { 9i64 130i64 8i64 0i64 } error: Index \[130\] out of bounds for array of shape \[130\]
-- input { 17i64 33i64 6i64 32i64 } error: Index \[65\] out of bounds for array of shape \[33\]
-- input { 17i64 33i64 16i64 32i64 } error: Index \[65\] out of bounds for array of shape \[33\]
-- input { 300i64 1i64 256i64 0i64 } error: Index \[1\] out of bounds for array of shape \[1\]
-- input { 9i64 130i64 9i64 0i64 } output @ data/map_tiles_9x130.out
entry fail_at (n: i64) (m: i64) (fi: i64) (fj: i64) : [n][m]i64 =
  let xs = iota m
  in map (\i -> map (\j -> xs[j + (if i == fi && j == fj then m else 0)] + i * 1000) (iota m))
         (iota n)

-- ==
-- entry: fail_row
-- input { 9i64 130i64 } error: Index \[8\] out of bounds for array of shape \[8\]
-- input { 300i64 1i64 } error: Index \[299\] out of bounds for array of shape \[299\]
-- input { 300i64 0i64 } error: Index \[299\] out of bounds for array of shape \[299\]
-- input { 1i64 0i64 } error: Index \[0\] out of bounds for array of shape \[0\]
entry fail_row (n: i64) (m: i64) : [n][m]i64 =
  let ys = iota (n - 1)
  in map (\i -> let y = ys[i] in map (\j -> y * 1000 + j) (iota m)) (iota n)

-- A map over iota n that splits its index into t / p and t % p (matmul's `flat`) runs in
-- the tiles of a ceil(n / p) x p space when p > 0 (the last row partial when n is not a
-- multiple of p), t / p and t % p taken from the tile; otherwise (p <= 0) one thread per
-- element computes them, and p = 0 fails. `//` and `%%` too.
-- ==
-- entry: split
-- input { 1000i64 130i64 3i64 } output @ data/map_tiles_split_1000_130_3.out
-- input { 10i64 4i64 2i64 } output { [0i64, 1i64, 2i64, 3i64, 1001i64, 1002i64, 1003i64, 1004i64, 2002i64, 2003i64] }
-- input { 3i64 300i64 2i64 } output { [0i64, 1i64, 2i64] }
-- input { 5i64 1i64 2i64 } output { [0i64, 1001i64, 2002i64, 3003i64, 4004i64] }
-- input { 5i64 -2i64 2i64 } output { [0i64, -1002i64, -1001i64, -2003i64, -2002i64] }
-- input { 0i64 0i64 2i64 } output { empty([0]i64) }
-- input { 0i64 7i64 2i64 } output { empty([0]i64) }
-- input { 5i64 0i64 2i64 } error: division by zero
entry split (n: i64) (p: i64) (k: i64) : [n]i64 =
  map (\t -> let i = t / p
             let j = t % p
             in loop acc = i * 1000 + j for l < k do acc + l * i)
      (iota n)

-- ==
-- entry: split_quot
-- input { 10i64 4i64 } output { [0i64, 1i64, 2i64, 3i64, 1000i64, 1001i64, 1002i64, 1003i64, 2000i64, 2001i64] }
-- input { 5i64 -2i64 } output { [0i64, 1i64, -1000i64, -999i64, -2000i64] }
entry split_quot (n: i64) (p: i64) : [n]i64 =
  map (\t -> let i = t // p
             let j = t %% p
             in loop acc = i * 1000 + j for _l < 1 do acc)
      (iota n)

-- A failure in one element at a tile's edge (the last element of a partial last row,
-- the last column, the first element of a row) reports that element's values.
-- ==
-- entry: split_fail
-- input { 1000i64 130i64 999i64 } error: Index \[219\] out of bounds for array of shape \[130\]
-- input { 1000i64 130i64 129i64 } error: Index \[259\] out of bounds for array of shape \[130\]
-- input { 1000i64 130i64 260i64 } error: Index \[130\] out of bounds for array of shape \[130\]
-- input { 1000i64 130i64 1000i64 } output @ data/map_tiles_split_fail_1000_130.out
entry split_fail (n: i64) (p: i64) (ft: i64) : [n]i64 =
  let ys = iota p
  in map (\t -> let i = t / p
                let j = t % p
                let y = ys[j + (if t == ft then p else 0)]
                in loop acc = i * 1000 + y for _l < 1 do acc)
         (iota n)
