-- Loops whose arrays change size from one iteration to the next: the sizes are carried
-- by the loop (compiler/lower_to_core.cpp, Note [Loops whose arrays change size]).
-- ==
-- entry: doubling
-- input { 3 } output { [7i32, 7i32, 7i32, 7i32, 7i32, 7i32, 7i32, 7i32] }
-- input { 0 } output { [7i32] }

-- ==
-- entry: halving
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } output { [1, 2] }
-- input { empty([0]i32) } output { empty([0]i32) }

-- ==
-- entry: grow_until
-- input { 10i64 } output { 16i64 15i64 }
-- input { 1i64 } output { 1i64 0i64 }

-- ==
-- entry: two_dependent
-- input { 3 } output { [0i64, 1i64, 2i64, 3i64] [4i64, 4i64, 4i64] }

-- ==
-- entry: matrix_rows
-- input { 2 } output { [[1i32, 2i32], [1i32, 2i32], [1i32, 2i32], [1i32, 2i32]] }

-- ==
-- entry: read_past_end
-- input { 2 [1, 2, 3] 2i64 } output { 2 }
-- input { 2 [1, 2, 3] 3i64 } error: Index \[3\] out of bounds for array of shape \[3\]
-- input { 5 [1, 2, 3] 5i64 } output { 2 }

-- Doubles each time: [1] -> [2] -> [4] -> ...
entry doubling (k: i32) : []i32 =
  loop xs = [7i32] for _i < k do xs ++ xs

-- Keeps the first half while it is longer than 2.
entry halving [n] (xs: [n]i32) : []i32 =
  loop ys = xs while length ys > 2 do take (length ys / 2) ys

-- A while loop over an array that grows: its length and last element after.
entry grow_until (n: i64) : (i64, i64) =
  let r = loop xs = [0i64] while length xs < n do iota (2 * length xs)
  in (length r, r[length r - 1])

-- The second array's size follows the first's, one iteration behind: found only when
-- the body is lowered the second time.
entry two_dependent (k: i32) : ([]i64, []i64) =
  loop (a, b) = (iota 1, iota 1) for _i < k do (iota (length a + 1), replicate (length a) (length a + 1))

-- The outer size of a 2-D array changes, the inner one stays.
entry matrix_rows (k: i32) : [][2]i32 =
  loop m = [[1i32, 2i32]] for _i < k do m ++ m

-- A bounds check inside such a loop, at the grown size: reports the size it had then.
entry read_past_end [n] (k: i32) (xs: [n]i32) (j: i64) : i32 =
  let ys = loop ys = take 1 xs for i < k do ys ++ [xs[i64.i32 i % n]]
  in ys[j]
