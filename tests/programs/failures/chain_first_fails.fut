-- A failure in the first of a chain of kernels: the gather (a kernel of its own, since
-- the next map indexes its result) fails; the kernels after it (a map that loops as
-- many times as an element of the gather's result says, a scan, a reduction) run on
-- what the failed kernel left, and must neither hang nor crash nor write out of bounds;
-- the failure reported is the gather's.
-- ==
-- input { [1i64, 2i64, 3i64] [0i64, 2i64, 1i64] } output { [3i64, 4i64, 4i64] 4i64 }
-- input { [1i64, 2i64, 3i64] [0i64, 9i64, 1i64] }
-- error: ^Index \[9\] out of bounds for array of shape \[3\]\.\nat .*chain_first_fails\.fut:13:22-26
-- input { [1i64, 2i64, 3i64] [3i64, 2i64, -1i64] }
-- error: ^Index \[(3|-1)\] out of bounds for array of shape \[3\]\.\nat .*chain_first_fails\.fut:13:22-26
entry main [n] (xs: [n]i64) (is: [n]i64) : ([n]i64, i64) =
  let a = map (\i -> xs[i] * 1000000000000) is
  let b = map (\j -> loop acc = 0 for k < a[(j + 1) % n] / 1000000000000 do acc + k) (iota n)
  let c = scan (+) 0 b
  in (c, reduce i64.max 0 c)
