-- The program behind tests/library/c_api_test.c: every scalar type, ranks 1 to 3,
-- tuples, aliasing results, slices, host loops, and failures of every place.

entry scalars (a: i8) (b: i16) (c: i32) (d: i64) (e: u8) (f: u16) (g: u32) (h: u64)
              (p: bool) (q: f32) (r: f64) (s: f16) =
  (a + 1, b + 1, c + 1, d + 1, e + 1, f + 1, g + 1, h + 1, !p, q * 2, r * 2, s * 2)

entry transpose2 (xss: [][]i32) : [][]i32 = transpose xss

entry cube (n: i64) : [][][]i64 =
  map (\i -> map (\j -> map (\k -> i * 100 + j * 10 + k) (iota n)) (iota n)) (iota n)

entry tup (p: (i32, f32)) (xs: [](i32, bool)) : ((f32, i32), [](bool, i32)) =
  ((p.1, p.0), map (\(x, b) -> (!b, x * 2)) xs)

entry same (xs: []i32) : []i32 = xs

entry twice (xs: []i32) : ([]i32, []i32) = let ys = map (+ 1) xs in (ys, ys)

entry tail1 (xs: []i32) : []i32 = map (+ 1) xs |> drop 1

entry gather (xs: []i32) (is: []i64) : []i32 = map (\i -> xs[i]) is

entry gather_sum (xs: []i32) (is: []i64) : i32 = reduce (+) 0 (map (\i -> xs[i]) is)

entry add (xs: []i32) (ys: []i32) : []i32 = map2 (+) xs ys

entry iterate (n: i64) (xs: []f32) : []f32 =
  loop ys = xs for _i < n do map (\y -> y * 0.5 + 1) ys

entry count_down (n: i32) : i32 =
  let (_, k) = loop (m, k) = (n, 0) while m > 0 do (m - 1, k + 1) in k
