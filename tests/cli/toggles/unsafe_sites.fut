-- #[unsafe] removes exactly the checks it covers (tests/cli/toggles_test.sh compares
-- `kerb check --report-checks` with the list there): on a function, the checks of its
-- body, wherever it is inlined, but not those of its arguments at the call; on an
-- expression, the checks inside it (#[unsafe] reaches as far right as it can, as in
-- Futhark, so the parentheses bound it), called functions' bodies included.
#[unsafe] def get (xs: []i32) (i: i64) : i32 = xs[i] / xs[0]
def checked_get (xs: []i32) (i: i64) : i32 = xs[i]
def twice (xs: []i32) (i: i64) : i32 = xs[i] * 2
entry main (xs: []i32) (is: []i64) (k: i64) : []i32 =
  map (\i -> get xs (is[i]) + (#[unsafe] (xs[i] % twice xs k)) + checked_get xs k)
      (iota (length is))
