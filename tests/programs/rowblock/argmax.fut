-- Per-row argmax (a reduction of pairs, value and index, the smaller index on ties):
-- with `reduce` (its operator not known to commute: a contiguous chunk a thread, main)
-- and `reduce_comm` (striped, comm), one block per row from 64 elements. More than
-- 16384 rows, so that the segmented reduction (taken first for few long rows) does
-- not run instead on the CPU device (those cases, no_interp, record the interpreter's
-- results: it takes seconds each); the small ones run everywhere. A failing index
-- inside the reduction's fused map, in one row (the first, one in the middle, the
-- last): the interpreter's message and location.
-- ==
-- entry: main
-- input { 5i64 70i64 -1i64 0i64 } output { 7i64 6i64 5i64 19i64 }
-- input { 5i64 70i64 2i64 9i64 }
-- error: Index \[79\] out of bounds for array of shape \[70\][\s\S]*argmax\.fut:39:68-85
-- no_interp input { 20000i64 70i64 -1i64 0i64 } output { 7i64 1i64 1i64 99998i64 }
-- no_interp input { 20000i64 10i64 -1i64 0i64 } output { 7i64 1i64 1i64 92726i64 }
-- no_interp input { 20000i64 70i64 0i64 7i64 }
-- error: Index \[77\] out of bounds for array of shape \[70\][\s\S]*argmax\.fut:39:68-85
-- no_interp input { 20000i64 70i64 10000i64 69i64 }
-- error: Index \[139\] out of bounds for array of shape \[70\][\s\S]*argmax\.fut:39:68-85
-- no_interp input { 20000i64 70i64 19999i64 0i64 }
-- error: Index \[70\] out of bounds for array of shape \[70\][\s\S]*argmax\.fut:39:68-85
-- ==
-- entry: comm
-- input { 5i64 70i64 -1i64 0i64 } output { 7i64 6i64 5i64 19i64 }
-- no_interp input { 20000i64 70i64 -1i64 0i64 } output { 7i64 1i64 1i64 99998i64 }
-- no_interp input { 20000i64 300i64 -1i64 0i64 } output { 7i64 1i64 1i64 99998i64 }
-- no_interp input { 20000i64 70i64 10000i64 3i64 }
-- error: Index \[73\] out of bounds for array of shape \[70\][\s\S]*argmax\.fut:44:73-90
def at (i: i64) (bad: i64) (k: i64) (m: i64) (j: i64) : i64 =
  if i == bad && j == k then j + m else j

def data (n: i64) (m: i64) : [n][m]f32 =
  unflatten (map (\q -> f32.i64 ((q / m * 7 + q % m * 3) % 11)) (iota (n * m)))

def pick (a: f32, i: i64) (b: f32, j: i64) : (f32, i64) =
  if a > b || (a == b && i < j) then (a, i) else (b, j)

entry main (n: i64) (m: i64) (bad: i64) (k: i64) : (i64, i64, i64, i64) =
  let am = map2 (\i xs -> (reduce pick (-f32.inf, -1) (map (\j -> (xs[at i bad k m j], j)) (iota m))).1)
                (iota n) (data n m)
  in (am[0], am[n / 2], am[n - 1], reduce (+) 0 am)

entry comm (n: i64) (m: i64) (bad: i64) (k: i64) : (i64, i64, i64, i64) =
  let am = map2 (\i xs -> (reduce_comm pick (-f32.inf, -1) (map (\j -> (xs[at i bad k m j], j)) (iota m))).1)
                (iota n) (data n m)
  in (am[0], am[n / 2], am[n - 1], reduce (+) 0 am)
