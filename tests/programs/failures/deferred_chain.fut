-- Loads whose index comes from a load that cannot be made: `xs[xs[-1]]` (a constant
-- index that is always out of bounds), then a gather through the value. Compiled code
-- defers the checks (docs/CHECKS.md, Note [Deferred checks]); the first load is never
-- made, and what follows must not read memory with whatever its register holds (on
-- the GPU such a register, left undefined, once let ptxas make the last gather at any
-- address: kerb difftest seed 1600860). The failure is the first load's, in every
-- element.
-- ==
-- entry: chain
-- input { [1, 2, 3] [10f32, 20f32] } error: Index \[-1\] out of bounds for array of shape \[3\]
-- input { empty([0]i32) [10f32] } error: Index \[-1\] out of bounds for array of shape \[0\]
-- ==
-- entry: guarded
-- input { [1, 2, 3] [10f32, 20f32] } output { [20f32, 20f32, 20f32, 20f32, 20f32, 20f32] }
-- input { empty([0]i32) [10f32, 20f32] } output { [7f32, 7f32, 7f32, 7f32, 7f32, 7f32] }

entry chain (xs: []i32) (v: []f32) : []f32 =
  map (\i -> v[(i64.i32 xs[i64.i32 xs[-1]] + i) % length v]) (iota 6)

-- The same with the out-of-bounds load behind a test on the length, as generated
-- programs write it: only the taken branch's loads are made.
entry guarded (xs: []i32) (v: []f32) : []f32 =
  map (\_ -> if length xs == 0 then 7f32
             else v[(i64.i32 xs[(i64.i32 xs[(-1) % length xs]) % length xs]) % length v]) (iota 6)
