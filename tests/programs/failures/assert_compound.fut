-- assert with a compound condition that calls a function and indexes an array.
-- ==
-- input { [3, 1, 2] 0i64 } output { 3 }
-- input { [3, 1, 2] 3i64 } error: Assertion is false: .*i < length xs && xs\[i\] > 0[\s\S]*assert_compound\.fut:7:
-- input { [0, 1, 2] 0i64 } error: Assertion is false: .*xs\[i\] > 0
entry main (xs: []i32) (i: i64) : i32 =
  let v = assert (i < length xs && xs[i] > 0) xs[i]
  in v
