-- Many threads fail at once, in many blocks: every thread j with j % 1000 == off reads
-- xs[-j]. Only one failure is reported, and it must be one that really happened: the
-- index is -j for such a j (-7, -1007, ..., -99007), never another value, and the
-- message is whole (the winner of the failure slot writes all its arguments).
-- `divide`: the same with a division by zero in every thousandth element of a
-- reduction's fused map.
-- ==
-- entry: gather
-- input { 5i64 -1i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { 100000i64 7i64 }
-- error: ^Index \[-(7|[0-9]*007)\] out of bounds for array of shape \[100000\]\.\nat .*many_threads_fail\.fut:21:17-53
-- input { 100000i64 0i64 }
-- error: ^Index \[-[1-9][0-9]*000\] out of bounds for array of shape \[100000\]\.\nat .*many_threads_fail\.fut:21:17-53

-- ==
-- entry: divide
-- input { 100000i64 -1i64 } output { 48200 }
-- input { 100000i64 7i64 } error: ^division by zero\nat .*many_threads_fail\.fut:23:
entry gather (n: i64) (off: i64) : []i64 =
  let xs = iota n
  in map (\j -> xs[if j % 1000 == off then -j else j]) (iota n)
entry divide (n: i64) (off: i64) : i32 =
  reduce (+) 0 (map (\j -> 100 / i32.i64 (j % 1000 - off)) (iota n))
