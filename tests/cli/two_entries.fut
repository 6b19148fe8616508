-- Two entry points, one of which the code generator does not support yet (a map whose
-- rows' sizes depend on the element): `kerb run -e` compiles only the entry it calls, so
-- the other one runs on the compiled devices.
entry fine (xs: []i32) : i32 = i32.sum xs

entry uneven (n: i64) : [][]i64 =
  map (\i -> if i == 0 then iota n else [i, i]) (iota n)
