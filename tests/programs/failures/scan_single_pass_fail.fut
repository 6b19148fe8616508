-- Failures inside the single-pass scan (Note [Single-pass scan] in
-- codegen/scan_kernels.cpp). A block that fails publishes a failed status, and every
-- block whose look-back reaches it leaves too, publishing the same; so the call fails
-- with the interpreter's message instead of waiting forever. `index` and `index64`: an
-- out-of-bounds read in the map fused into the scan, at one element in the first, a
-- middle and the last tile (i32: status words with the value packed in; i64: a flag
-- and arrays of values per tile); the message gives the index. `op64`: an assert in
-- the operator that fails once a prefix reaches lim, in the first, a middle or the
-- last tile, or in the look-back's folds of the tiles' aggregates. The passing cases
-- show the scan intact.
-- ==
-- entry: index
-- input { 1000000i64 -1i64 999999i64 } output { 4500000 }
-- input { 1000000i64 3i64 0i64 }
-- error: Index \[1000003\] out of bounds for array of shape \[1000000\][\s\S]*scan_single_pass_fail\.fut:42:34-66
-- input { 1000000i64 543210i64 0i64 }
-- error: Index \[1543210\] out of bounds for array of shape \[1000000\][\s\S]*scan_single_pass_fail\.fut:42:34-66
-- input { 1000000i64 999999i64 0i64 }
-- error: Index \[1999999\] out of bounds for array of shape \[1000000\][\s\S]*scan_single_pass_fail\.fut:42:34-66

-- ==
-- entry: index64
-- input { 1000000i64 -1i64 999999i64 } output { 4500000i64 }
-- input { 1000000i64 3i64 0i64 }
-- error: Index \[1000003\] out of bounds for array of shape \[1000000\][\s\S]*scan_single_pass_fail\.fut:47:34-66
-- input { 1000000i64 543210i64 0i64 }
-- error: Index \[1543210\] out of bounds for array of shape \[1000000\][\s\S]*scan_single_pass_fail\.fut:47:34-66
-- input { 1000000i64 999999i64 0i64 }
-- error: Index \[1999999\] out of bounds for array of shape \[1000000\][\s\S]*scan_single_pass_fail\.fut:47:34-66

-- ==
-- entry: op64
-- input { 1000000i64 2000000i64 777777i64 } output { 777778i64 }
-- input { 1000000i64 30i64 0i64 }
-- error: Assertion is false: a \+ b < lim[\s\S]*scan_single_pass_fail\.fut:51:25-52
-- input { 1000000i64 500000i64 0i64 }
-- error: Assertion is false: a \+ b < lim[\s\S]*scan_single_pass_fail\.fut:51:25-52
-- input { 1000000i64 1000000i64 0i64 }
-- error: Assertion is false: a \+ b < lim[\s\S]*scan_single_pass_fail\.fut:51:25-52
entry index (n: i64) (bad: i64) (at: i64) : i32 =
  let ys = map (\i -> i32.i64 (i % 10)) (iota n)
  let s = scan (+) 0 (map (\i -> ys[if i == bad then i + n else i]) (iota n))
  in s[at]

entry index64 (n: i64) (bad: i64) (at: i64) : i64 =
  let ys = map (\i -> i % 10) (iota n)
  let s = scan (+) 0 (map (\i -> ys[if i == bad then i + n else i]) (iota n))
  in s[at]

entry op64 (n: i64) (lim: i64) (at: i64) : i64 =
  let s = scan (\a b -> assert (a + b < lim) (a + b)) 0 (replicate n 1)
  in s[at]

-- `op32`: op64's on i32, whose tile is in registers (Note [Single-pass tiles in
-- registers]: the threads' scans, the warps' shuffle scans, the look-back's butterfly,
-- the prefixes added after the look-back); lim 5000 fails first in the look-back on the
-- GPU (tiles of 3072).
-- ==
-- entry: op32
-- input { 1000000i64 2000000i32 777777i64 } output { 777778 }
-- input { 1000000i64 30i32 0i64 }
-- error: Assertion is false: a \+ b < lim[\s\S]*scan_single_pass_fail\.fut:70:25-52
-- input { 1000000i64 5000i32 0i64 }
-- error: Assertion is false: a \+ b < lim[\s\S]*scan_single_pass_fail\.fut:70:25-52
-- input { 1000000i64 500000i32 0i64 }
-- error: Assertion is false: a \+ b < lim[\s\S]*scan_single_pass_fail\.fut:70:25-52
-- input { 1000000i64 1000000i32 0i64 }
-- error: Assertion is false: a \+ b < lim[\s\S]*scan_single_pass_fail\.fut:70:25-52
entry op32 (n: i64) (lim: i32) (at: i64) : i32 =
  let s = scan (\a b -> assert (a + b < lim) (a + b)) 0 (replicate n 1)
  in s[at]
