-- Two consumed loop parameters may not be given the same value.
-- ==
-- error: type_uniq_loop_params_alias\.fut:5:3: error: Return value for loop parameter "ys" aliases other consumed loop parameter\.
def main (n: i64) : ([]i64, []i64) =
  loop (xs: *[]i64, ys: *[]i64) = (iota n, iota n) for i < 2 do
    (xs, xs)
