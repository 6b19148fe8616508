-- For `kerb run --possible-failures` (cli_test.sh): two elements of one map fail at two
-- different indexing sites; the interpreter reports the first element's failure, and
-- compiled code may report either (their threads race for the failure slot).
entry main (xs: []i32) (is: []i64) : []i32 =
  map (\i -> if i < 0 then xs[i + 10] else xs[i]) is
