-- #[unsafe] removes the checks it covers, division by zero included (as in Futhark):
-- compiled code has no check there, and a division by zero under #[unsafe] has no
-- defined result (the CPU device gives some value; the GPU too). The interpreter still
-- reports it, since it has no value to give (docs/CHECKS.md), so that case runs on the
-- interpreter only. `kerb check --report-checks` shows the site disabled
-- (tests/cli/cli_test.sh).
-- ==
-- input { 10 5 } output { 2 }
-- input { -7 2 } output { -4 }
-- no_cpu no_cuda input { 10 0 } error: division by zero
entry main (a: i32) (b: i32) : i32 =
  #[unsafe] (a / b)
