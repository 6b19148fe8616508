-- Found by kerb difftest (seeds 357 and 457, interp vs cpu): a map whose result nothing
-- reads was never computed by compiled code, so a failing index in its lambda failed on
-- the interpreter only (or another, later check failed instead). Such a map is dead
-- code now, removed with its checks by compiler/remove_dead_code.cpp, as Futhark allows,
-- and `kerb check --report-checks` says so ("removed (dead code: ...)"); the interpreter
-- still makes the checks (docs/CHECKS.md, Note [Checks in dead code]). `kerb difftest`
-- accepts the interpreter failing alone there.
-- ==
-- entry: main
-- no_cpu no_cuda input { [1i64] [5i64] }   error: Index \[1\] out of bounds for array of shape \[1\]\.
-- no_interp input { [1i64] [5i64] }   output { 0i64 }
-- input { [1i64, 2i64] [5i64, 6i64] }   output { 0i64 }
-- ==
-- entry: later_assert
-- no_cpu no_cuda input { [true] empty([0]i64) 6u8 }   error: Index \[1\] out of bounds for array of shape \[0\]\.
-- no_interp input { [true] empty([0]i64) 6u8 }   error: Assertion is false: false
-- ==
-- entry: inner
-- input { [1, 2, 3] 2i64 }   output { [2, 3, 4] }
-- no_cpu no_cuda input { [1, 2, 3] 3i64 }   error: Index \[3\] out of bounds for array of shape \[3\]\.
-- no_interp input { [1, 2, 3] 3i64 }   output { [2, 3, 4] }
entry main [n] (p8: [n]i64) (p9: [n]i64) : i64 =
  let v13 = 0i64
  let v18 = (let v17 = (map2 (\x14 x16 -> p8[1i64]) (iota n) p9) in v13)
  in v13

entry later_assert [n] [m] (p1: [m]bool) (p2: [n]i64) (p3: u8) : []u16 =
  let v10 = (let v8 = (map2 (\x4 x5 -> (let a7 = (map (\x6 -> p3) p2) in a7[1i64])) p1 p1) in (map (\x9 -> 0u16) p2))
  let v11 = (i64.u64 (assert false 4u64))
  in v10

entry inner (xs: []i32) (k: i64) : []i32 =
  map (\x -> let unused = map (\j -> xs[j + k - 2]) (iota 3) in x + 1) xs
