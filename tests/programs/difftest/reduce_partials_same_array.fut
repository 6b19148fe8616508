-- Found by kerb difftest (seed 6838, interp vs cpu): the second launch of a reduction
-- (over the blocks' partial results) bound each partial result to the variable of its
-- input array; with the same array twice (`zip xs xs`) both operands read the last
-- partial: a wrong result, here (1, 0) for no elements gave (0, 0).
-- ==
-- entry: main
-- input { empty([0]i64) }
-- output { false 0.0f32 }
-- input { [2i64, 3i64] }
-- output { false 0.0f32 }
-- ==
-- entry: pair
-- input { empty([0]i64) }
-- output { 1i64 0i64 }
-- input { [2i64, 3i64] }
-- output { 6i64 9i64 }
-- input { [1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64] }
-- output { 5040i64 13699i64 }
-- ==
-- entry: many
-- input { 1000000i64 }
-- output { 3999997i64 7i64 }
-- ==
-- entry: sums
-- input { [1, 2, 3, 4] }
-- output { 10i32 4i32 24i32 }
-- input { empty([0]i32) }
-- output { 0i32 -2147483648i32 1i32 }
entry main [n] (p1: [n]i64) : (bool, f32) =
  let v19 = ((0i64 >= ((reduce (\(a0, b0) (a1, b1) -> (a0 * a1, b0 * a1 + b1)) (1i64, 0i64) (zip p1 p1))).0), 0.0f32)
  in v19

entry pair [n] (xs: [n]i64) : (i64, i64) =
  reduce (\(a0, b0) (a1, b1) -> (a0 * a1, b0 * a1 + b1)) (1, 0) (zip xs xs)

entry sums [n] (xs: [n]i32) : (i32, i32, i32) =
  reduce_comm (\(a0, b0, c0) (a1, b1, c1) -> (a0 + a1, i32.max b0 b1, c0 * c1)) (0, i32.lowest, 1) (zip3 xs xs xs)

-- Many blocks of partial results.
entry many (n: i64) : (i64, i64) =
  let xs = map (\i -> i % 7 + 1) (iota n)
  in reduce (\(a0, b0) (a1, b1) -> (a0 + a1, i64.max b0 b1 + 0 * a1)) (0, 0) (zip xs xs)
