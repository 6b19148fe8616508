-- Statements of a map's lambda that read nothing the lambda binds move before the map
-- (Note [Hoisting out of map lambdas] in compiler/hoist_invariant_scalars.cpp): only
-- those that cannot fail, so a division by zero in the lambda of an empty map still
-- does not fail, and one in a non-empty map still fails at its place. Float
-- divisions by zero give infinities wherever they run; a lambda whose result is such a
-- constant; nested maps, where what reads the outer index stays in the outer lambda.
-- ==
-- entry: consts
-- input { [1f32, 2f32] 3f32 0f32 } output { [f32.inf, f32.inf] }
-- input { [1f32, 2f32] 3f32 2f32 } output { [2.5f32, 3.5f32] }
-- input { empty([0]f32) 3f32 0f32 } output { empty([0]f32) }
entry consts (xs: []f32) (a: f32) (b: f32) : []f32 = map (\x -> x + a / b) xs

-- ==
-- entry: int_div
-- input { empty([0]i64) 1i64 0i64 } output { empty([0]i64) }
-- input { [5i64, 6i64] 7i64 2i64 } output { [57i64, 58i64] }
-- input { [5i64] 1i64 0i64 } error: division by zero
-- input { empty([0]i64) 2i64 -1i64 } output { empty([0]i64) }
entry int_div (xs: []i64) (a: i64) (b: i64) : []i64 =
  map (\x -> x + a / b + (if b < 0 then 0 else a ** b)) xs

-- ==
-- entry: result
-- input { [1i32, 2i32, 3i32] 21i32 } output { [42i32, 42i32, 42i32] }
-- input { empty([0]i32) 21i32 } output { empty([0]i32) }
entry result (xs: []i32) (a: i32) : []i32 = map (\_ -> a * 2) xs

-- ==
-- entry: nested
-- input { 3i64 4i64 5i64 } output { [[0i64, 6i64, 12i64, 18i64], [5i64, 11i64, 17i64, 23i64], [10i64, 16i64, 22i64, 28i64]] }
-- input { 0i64 4i64 5i64 } output { empty([0][4]i64) }
-- input { 2i64 0i64 5i64 } output { [empty([0]i64), empty([0]i64)] }
entry nested (n: i64) (m: i64) (k: i64) : [n][m]i64 =
  map (\i -> map (\j -> i * k + j * (k + 1)) (iota m)) (iota n)
