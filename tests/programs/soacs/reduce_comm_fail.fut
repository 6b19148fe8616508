-- Failures inside the maps fused into a reduce_comm (Note [Commutative reductions in
-- lanes] in codegen/block_kernels.cpp): a division by zero at element `bad` of a map
-- over iota whose arrays are read with vector loads (at each place of a group of four,
-- around the GPU's groups of a block (1024) and blocks, in the elements after the last
-- group, last), an index past the end (`xs[i + 1]`, read one at a time inside the
-- groups) and an array shorter than the reduction, which is read one element at a time
-- (its bounds check then fails; which index a device reports first is unspecified).
-- ==
-- entry: div
-- input { 100003i64 -1i64 } output { 0i32 0i64 }
-- input { 100003i64 0i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 100003i64 1i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 100003i64 2i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 100003i64 3i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 100003i64 1023i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 100003i64 1024i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 100003i64 50001i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 100003i64 100000i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 100003i64 100002i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 1i64 0i64 } error: division by zero[\s\S]*reduce_comm_fail\.fut:43:56-68
-- input { 0i64 0i64 } output { 2147483647i32 -1i64 }

-- ==
-- entry: next
-- input { 100003i64 } error: Index \[100003\] out of bounds for array of shape \[100003\]
-- input { 100004i64 } error: Index \[100004\] out of bounds for array of shape \[100004\]
-- input { 0i64 } output { 2147483647i32 -1i64 }

-- ==
-- entry: short
-- input { 100003i64 100003i64 } output { 0i32 0i64 }
-- input { 100003i64 100002i64 } error: out of bounds for array of shape \[100002\]
-- input { 100003i64 5i64 } error: out of bounds for array of shape \[5\]

def argmin (a: (i32, i64)) (b: (i32, i64)) : (i32, i64) =
  if a.0 < b.0 || (a.0 == b.0 && a.1 < b.1) then a else b

def num (n: i64) : [n]i32 = map (\i -> i32.i64 ((i * 7) % 11)) (iota n)

entry div (n: i64) (bad: i64) : (i32, i64) =
  let xs = num n
  let ys = map (\i -> if i == bad then 0 else 1 + i32.i64 (i % 3)) (iota n)
  in reduce_comm argmin (i32.highest, -1) (map (\i -> (xs[i] / ys[i], i)) (iota n))

entry next (n: i64) : (i32, i64) =
  let xs = num n
  in reduce_comm argmin (i32.highest, -1) (map (\i -> (xs[i] + xs[i + 1], i)) (iota n))

entry short (n: i64) (m: i64) : (i32, i64) =
  let xs = num m
  in reduce_comm argmin (i32.highest, -1) (map (\i -> (xs[i], i)) (iota n))
