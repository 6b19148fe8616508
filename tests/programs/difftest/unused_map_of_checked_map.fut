-- Found by kerb difftest (seed 403658, interp vs cpu): a map that nothing reads, over a
-- map whose lambda asserts, was never computed by compiled code (the producer was fused
-- into it, and only the unused map's own lambda was looked at for checks), so the
-- assertion failed on the interpreter only. Both maps are dead code now, removed with
-- their checks (compiler/remove_dead_code.cpp: a map read only by a dead map is dead
-- too), and --report-checks says so; the interpreter still fails (docs/CHECKS.md,
-- Note [Checks in dead code]).
-- ==
-- no_cpu no_cuda input { [-3119104365668577194i64] }
-- error: Assertion is false: false
-- no_interp input { [-3119104365668577194i64] }
-- output { 0u64 }
-- input { empty([0]i64) }
-- output { 0u64 }
-- ==
-- entry: two_deep
-- input { [1i64, 2i64, 3i64] [0i64, 1i64, 2i64] }
-- output { 7i64 }
-- no_cpu no_cuda input { [1i64, 2i64, 3i64] [0i64, 5i64, 2i64] }
-- error: Index \[5\] out of bounds for array of shape \[3\]\.
-- no_interp input { [1i64, 2i64, 3i64] [0i64, 5i64, 2i64] }
-- output { 7i64 }

entry main [m] (p6: [m]i64) : u64 =
  let v18 = (let v17 = (map (\x10 -> 0i16) (map2 (\x11 x12 -> (assert false 0u16)) (iota (length p6)) (replicate (length p6) 0.0f32))) in 0u64)
  in v18

entry two_deep [n] (xs: [n]i64) (is: [n]i64) : i64 =
  let a = map (\i -> xs[i]) is
  let b = map (+ 1) a
  let _c = map (* 2) b
  in 7
