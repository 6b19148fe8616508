-- Failures in the tiled block kernels (non-commutative reductions and scans; Note
-- [Tiled block kernels] in codegen/block_kernels.cpp), where a block whose thread fails
-- leaves at the next barrier, all its threads together. `fused_*`: a division by zero
-- in the map fused into a tuple scan or reduction, at element `bad` (first, around the
-- CPU's and the GPU's tile sizes, around the start of the second warp's run in the
-- GPU's reduction (256), last). `op_*`: an assert in a non-commutative operator (the
-- last non-zero value, with a count) that fails once a count reaches `lim`: in the
-- threads' folds, the trees, the running value, the prefix of the blocks or (lim = n)
-- only in the very last combination.
-- ==
-- entry: fused_scan fused_reduce
-- input { 100000i64 -1i64 } output { 1i32 2i32 }
-- input { 100000i64 0i64 } error: division by zero[\s\S]*tiled_fail\.fut:34:15-45
-- input { 100000i64 55i64 } error: division by zero[\s\S]*tiled_fail\.fut:34:15-45
-- input { 100000i64 56i64 } error: division by zero[\s\S]*tiled_fail\.fut:34:15-45
-- input { 100000i64 1792i64 } error: division by zero[\s\S]*tiled_fail\.fut:34:15-45
-- input { 100000i64 1793i64 } error: division by zero[\s\S]*tiled_fail\.fut:34:15-45
-- input { 100000i64 255i64 } error: division by zero[\s\S]*tiled_fail\.fut:34:15-45
-- input { 100000i64 256i64 } error: division by zero[\s\S]*tiled_fail\.fut:34:15-45
-- input { 100000i64 99999i64 } error: division by zero[\s\S]*tiled_fail\.fut:34:15-45

-- ==
-- entry: op_scan op_reduce
-- input { 100000i64 200000 } output { 88i32 100000i32 }
-- input { 100000i64 5 } error: Assertion is false[\s\S]*tiled_fail\.fut:37:3-69
-- input { 100000i64 1000 } error: Assertion is false[\s\S]*tiled_fail\.fut:37:3-69
-- input { 100000i64 60000 } error: Assertion is false[\s\S]*tiled_fail\.fut:37:3-69
-- input { 100000i64 100000 } error: Assertion is false[\s\S]*tiled_fail\.fut:37:3-69

-- apply f first, then g
def compose (f: (i32, i32)) (g: (i32, i32)) : (i32, i32) = (g.0 * f.0, g.0 * f.1 + g.1)

def inputs (n: i64) (bad: i64) : [n](i32, i32) =
  map (\i -> (-1 / (if i == bad then 0 else 1), i32.i64 (i % 13) - 6)) (iota n)

def last_nz (lim: i32) (a: (i32, i32)) (b: (i32, i32)) : (i32, i32) =
  assert (a.1 + b.1 < lim) (if b.0 != 0 then b.0 else a.0, a.1 + b.1)

def counted (n: i64) : [n](i32, i32) = map (\i -> (if i % 7 == 3 then i32.i64 (i % 97) else 0, 1)) (iota n)

entry fused_scan (n: i64) (bad: i64) : (i32, i32) = (scan compose (1, 0) (inputs n bad))[n - 1]
entry fused_reduce (n: i64) (bad: i64) : (i32, i32) = reduce compose (1, 0) (inputs n bad)
entry op_scan (n: i64) (lim: i32) : (i32, i32) = (scan (last_nz lim) (0, 0) (counted n))[n - 1]
entry op_reduce (n: i64) (lim: i32) : (i32, i32) = reduce (last_nz lim) (0, 0) (counted n)
