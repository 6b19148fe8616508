-- Found by kerb difftest (seeds 357 and 457, interp vs cpu): a map whose result nothing
-- reads was never computed by compiled code, so a failing index in its lambda failed on
-- the interpreter only (or another, later check failed instead). Its checks happen now,
-- on the host and inside kernels.
-- ==
-- entry: main
-- input { [1i64] [5i64] }   error: Index \[1\] out of bounds for array of shape \[1\]\.
-- input { [1i64, 2i64] [5i64, 6i64] }   output { 0i64 }
-- ==
-- entry: later_assert
-- input { [true] empty([0]i64) 6u8 }   error: Index \[1\] out of bounds for array of shape \[0\]\.
-- ==
-- entry: inner
-- input { [1, 2, 3] 2i64 }   output { [2, 3, 4] }
-- input { [1, 2, 3] 3i64 }   error: Index \[3\] out of bounds for array of shape \[3\]\.
entry main [n] (p8: [n]i64) (p9: [n]i64) : i64 =
  let v13 = 0i64
  let v18 = (let v17 = (map2 (\x14 x16 -> p8[1i64]) (iota (length p9)) p9) in v13)
  in v13

entry later_assert [n] [m] (p1: [m]bool) (p2: [n]i64) (p3: u8) : []u16 =
  let v10 = (let v8 = (map2 (\x4 x5 -> (let a7 = (map (\x6 -> p3) p2) in a7[1i64])) p1 p1) in (map (\x9 -> 0u16) p2))
  let v11 = (i64.u64 (assert false 4u64))
  in v10

entry inner (xs: []i32) (k: i64) : []i32 =
  map (\x -> let unused = map (\j -> xs[j + k - 2]) (iota 3) in x + 1) xs
