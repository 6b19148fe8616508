-- Arrays made inside a map whose sizes are known only inside it (the element's own
-- length): the code generator runs such a map as a host loop over its elements
-- (Note [Maps whose arrays are sized inside] in codegen/program_gen.cpp).
-- ==
-- entry: sums
-- input { [3i64, 0i64, 5i64] [1i64, 2i64, 3i64] }
-- output { [3i64, 0i64, 10i64] [3i64, 0i64, 15i64] }
-- input { [2i64, -1i64] [0i64, 0i64] }
-- error: Range 0..1..<-1 is invalid
-- ==
-- entry: rows
-- input { [1i64, 4i64, 2i64] 3i64 }
-- output { [[0i64, 1i64, 2i64], [3i64, 4i64, 5i64], [1i64, 2i64, 3i64]] }
-- ==
-- entry: nested
-- input { [2i64, 3i64] }
-- output { [5i64, 18i64] }
-- ==
-- entry: picked
-- input { [4i64, 2i64, 6i64] [1i32, 1i32, 5i32] }
-- output { [1i64, 1i64, 5i64] }
-- input { [4i64, 2i64, 6i64] [1i32, 2i32, 5i32] }
-- error: Index \[2\] out of bounds for array of shape \[2\]

-- iota and replicate of a per-element length, read by reductions; the lengths come
-- from a map that is fused into its reader (computed before the loop).
entry sums [n] (ns: [n]i64) (ks: [n]i64) : ([]i64, []i64) =
  let ms = map (\n -> n + 0) ns
  in unzip (map2 (\n k -> (i64.sum (iota n), i64.sum (replicate n k))) ms ks)

-- Rows of a known length m computed from an array of the element's length.
entry rows (ns: []i64) (m: i64) : [][m]i64 =
  map (\n -> let xs = map (\i -> i + n - 1) (iota (n + m))
             in map (\j -> xs[j]) (iota m)) ns

-- A map inside, over arrays of arrays sized by the element.
entry nested (ns: []i64) : []i64 =
  map (\n -> let xss = map (\i -> map (\j -> i * j + 1) (iota n)) (iota n)
             in i64.sum (map i64.sum xss)) ns

-- An index out of bounds in the second element (the first failure, in order).
entry picked [n] (ns: [n]i64) (is: [n]i32) : []i64 =
  map2 (\n i -> let xs = opaque (iota n) in xs[i]) ns is
