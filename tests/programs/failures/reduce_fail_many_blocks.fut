-- Failures inside reductions over many blocks (on the GPU: block kernels with barriers,
-- where a failing thread must still reach every barrier, or the block deadlocks).
-- `fused`: a division by zero in the map fused into the reduction's first pass, at one
-- element in the middle of the input. `tree`: an assert in the operator that fails only
-- when partial sums grow large, i.e. in the tree over the block's threads (lim 1000) or
-- in the second launch over the blocks' partial results (lim 5000) on the GPU; the CPU
-- device and the interpreter fail in their own order, with the same message.
-- ==
-- entry: fused
-- input { 1000000i64 -1i64 } output { 7000000 }
-- input { 1000000i64 543210i64 }
-- error: division by zero[\s\S]*reduce_fail_many_blocks\.fut:24:28-57
-- input { 1000000i64 0i64 }
-- error: division by zero[\s\S]*reduce_fail_many_blocks\.fut:24:28-57
-- input { 1000000i64 999999i64 }
-- error: division by zero[\s\S]*reduce_fail_many_blocks\.fut:24:28-57

-- ==
-- entry: tree
-- input { 1000000i64 2000000 } output { 1000000 }
-- input { 1000000i64 1000 } error: Assertion is false: a \+ b < lim[\s\S]*reduce_fail_many_blocks\.fut:26:19-46
-- input { 1000000i64 5000 } error: Assertion is false: a \+ b < lim[\s\S]*reduce_fail_many_blocks\.fut:26:19-46
entry fused (n: i64) (bad: i64) : i32 =
  reduce (+) 0 (map (\i -> 7 / (if i == bad then 0 else 1)) (iota n))
entry tree (n: i64) (lim: i32) : i32 =
  reduce (\a b -> assert (a + b < lim) (a + b)) 0 (replicate n 1)
