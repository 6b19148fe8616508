-- Failures inside scans over many blocks (on the GPU: block totals, a prefix kernel and
-- a last pass, with barriers that a failing thread must still reach). `fused`: a
-- division by zero in the map fused into the scan, at one element. `op`: an assert in
-- the operator that fails once a prefix reaches `lim`: in the block totals' pass, the
-- prefix kernel or the last pass, depending on lim. The result's last element and the
-- element at `at` show that a scan that passes is intact.
-- ==
-- entry: fused
-- input { 1000000i64 -1i64 999999i64 } output { 7000000 }
-- input { 1000000i64 543210i64 0i64 }
-- error: division by zero[\s\S]*scan_fail_many_blocks\.fut:22:34-63
-- input { 1000000i64 999999i64 0i64 }
-- error: division by zero[\s\S]*scan_fail_many_blocks\.fut:22:34-63

-- ==
-- entry: op
-- input { 1000000i64 2000000 777777i64 } output { 777778 }
-- input { 1000000i64 1000 0i64 } error: Assertion is false: a \+ b < lim[\s\S]*scan_fail_many_blocks\.fut:25:25-52
-- input { 1000000i64 5000 0i64 } error: Assertion is false: a \+ b < lim[\s\S]*scan_fail_many_blocks\.fut:25:25-52
-- input { 1000000i64 999999 0i64 } error: Assertion is false: a \+ b < lim[\s\S]*scan_fail_many_blocks\.fut:25:25-52
entry fused (n: i64) (bad: i64) (at: i64) : i32 =
  let s = scan (+) 0 (map (\i -> 7 / (if i == bad then 0 else 1)) (iota n))
  in s[at]
entry op (n: i64) (lim: i32) (at: i64) : i32 =
  let s = scan (\a b -> assert (a + b < lim) (a + b)) 0 (replicate n 1)
  in s[at]
