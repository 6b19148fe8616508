-- Checks in dead code (docs/CHECKS.md, Note [Checks in dead code]). Futhark lets
-- dead-code elimination remove an assertion whose value is not used; Kerb does, and says
-- so. The interpreter (the reference) makes every check where the program says; compiled
-- code, on the CPU device and the GPU alike:
--   - removes a map whose result is not used, or used only for its size, with its
--     checks: --report-checks says "removed (dead code: ...)" (length_only, unused);
--   - computes a map that is read only inside a branch, a loop's body or another map's
--     lambda where it is read, so its checks do not happen where that code does not run:
--     --report-checks says "kept (code N; skipped where dead: ...)" (in_branch, the shape
--     of kerb difftest's program 90173; in_loop; in_lambda; by_lazy_map);
--   - makes the checks of a map that something surely reads, as the interpreter does
--     (in_both_branches, surely_read).
-- `kerb difftest` accepts the interpreter failing alone only at the first two kinds of
-- site. tests/cli/cli_test.sh checks the report's lines.
-- ==
-- entry: length_only
-- no_cpu no_cuda input { [1i64, 6i64] }   error: Assertion is false: x != 6
-- no_interp input { [1i64, 6i64] }   output { 2i64 }
-- input { [1i64, 2i64] }   output { 2i64 }
-- ==
-- entry: unused
-- no_cpu no_cuda input { [1i64, 2i64] 2i64 }   error: Index \[2\] out of bounds for array of shape \[2\]\.
-- no_interp input { [1i64, 2i64] 2i64 }   output { 3i64 }
-- input { [1i64, 2i64] 0i64 }   output { 3i64 }
-- ==
-- entry: in_branch
-- no_cpu no_cuda input { [6.0, 8.0] false }   error: Assertion is false: x != 6.0
-- no_interp input { [6.0, 8.0] false }   output { [0i16, 0i16] }
-- input { [6.0, 8.0] true }   error: Assertion is false: x != 6.0
-- input { [5.0, 8.0] true }   output { [5i16, 8i16] }
-- ==
-- entry: in_loop
-- no_cpu no_cuda input { [1i64, 6i64] 0i64 }   error: Assertion is false: x != 6
-- no_interp input { [1i64, 6i64] 0i64 }   output { 0i64 }
-- input { [1i64, 6i64] 2i64 }   error: Assertion is false: x != 6
-- input { [1i64, 5i64] 3i64 }   output { 24i64 }
-- ==
-- entry: in_lambda
-- no_cpu no_cuda input { [1i64, 6i64] empty([0]i64) }   error: Assertion is false: x != 6
-- no_interp input { [1i64, 6i64] empty([0]i64) }   output { empty([0]i64) }
-- input { [1i64, 6i64] [1i64] }   error: Assertion is false: x != 6
-- input { [1i64, 5i64] [1i64, 2i64] }   output { [8i64, 16i64] }
-- ==
-- entry: by_lazy_map
-- no_cpu no_cuda input { [6i64] false }   error: Assertion is false: x != 6
-- no_interp input { [6i64] false }   output { 0i64 }
-- input { [6i64] true }   error: Assertion is false: x != 6
-- ==
-- entry: in_both_branches
-- input { [1i64, 6i64] false }   error: Assertion is false: x != 6
-- input { [1i64, 6i64] true }   error: Assertion is false: x != 6
-- input { [1i64, 5i64] false }   output { 12i64 }
-- ==
-- entry: surely_read
-- input { [6i64] false }   error: Assertion is false: x != 6
-- input { [5i64] false }   output { 12i64 }

entry length_only [n] (xs: [n]i64) : i64 =
  let ys = map (\x -> assert (x != 6) (x + 1)) xs
  in length ys

entry unused [n] (xs: [n]i64) (k: i64) : i64 =
  let _ys = map (\x -> xs[x + k - 1]) xs
  in reduce (+) 0 xs

entry in_branch [n] (xs: [n]f64) (b: bool) : [n]i16 =
  let ys = map (\x -> assert (x != 6.0) (i16.f64 x)) xs
  in if b then map (\y -> y) ys else replicate (length ys) 0i16 :> [n]i16

entry in_loop [n] (xs: [n]i64) (k: i64) : i64 =
  let ys = map (\x -> assert (x != 6) (x + 1)) xs
  in loop acc = 0 for i < k do acc + reduce (+) 0 (map (* i) ys)

entry in_lambda [n] [m] (xs: [n]i64) (js: [m]i64) : [m]i64 =
  let ys = map (\x -> assert (x != 6) (x + 1)) xs
  in map (\j -> reduce (+) 0 (map (* j) ys)) js

entry by_lazy_map [n] (xs: [n]i64) (b: bool) : i64 =
  let ys = map (\x -> assert (x != 6) (x + 1)) xs
  let zs = map (* 2) ys
  in if b then reduce (+) 0 zs else 0

entry in_both_branches [n] (xs: [n]i64) (b: bool) : i64 =
  let ys = map (\x -> assert (x != 6) (x + 1)) xs
  in if b then reduce (+) 0 ys else reduce (*) 1 ys

entry surely_read [n] (xs: [n]i64) (b: bool) : i64 =
  let ys = map (\x -> assert (x != 6) (x + 1)) xs
  let zs = map (* 2) ys
  in reduce (+) 0 zs + (if b then reduce (+) 0 ys else 0)
