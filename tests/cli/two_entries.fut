-- Two entry points; `kerb run -e` compiles only the entry it calls. The second's map
-- gives rows of different sizes (an `iota n` and a pair): it compiles (the rows' size is
-- taken from the first element, Note [Map rows whose sizes depend on the element]) and
-- fails at run time with Futhark's message where n > 2.
entry fine (xs: []i32) : i32 = i32.sum xs

entry uneven (n: i64) : [][]i64 =
  map (\i -> if i == 0 then iota n else [i, i]) (iota n)
