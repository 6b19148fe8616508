-- #[unsafe] may drop checks in compiled code, but the interpreter still checks:
-- an out-of-bounds index under #[unsafe] fails in the interpreter.
-- Compiled code has no check there, so that case runs on the interpreter only.
-- ==
-- input { [1, 2, 3] 1i64 } output { 2 }
-- no_cpu no_cuda input { [1, 2, 3] 5i64 } error: Index \[5\] out of bounds for array of shape \[3\]
entry main (xs: []i32) (i: i64) : i32 =
  #[unsafe] xs[i]
