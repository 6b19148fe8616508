-- Size parameters that no parameter has as its whole size, which Futhark infers from a
-- use's context: from the type the result must have (a let's type, map2's other
-- argument), and from a parameter's size expression ([2 * k]). Kerb passes them as
-- explicit arguments (infer.cpp, Note [Sizes given by the context]).
-- ==
-- input { [1, 2, 3, 4] 2i64 }
-- output { [[7, 7, 7], [7, 7, 7]] [1, 2, 3, 4] [1, 3] [2, 4] 4i64 }
-- input { [1, 2, 3, 4] 3i64 } error: Index \[0:6\] out of bounds for array of shape \[4\]

def filled [m][n] (v: i32) : [m][n]i32 = tabulate_2d m n (\_ _ -> v)
def zeros [n] : [n]i32 = replicate n 0
def pairs [k] (ps: [2 * k]i32) : [k](i32, i32) = tabulate k (\i -> (ps[2 * i], ps[2 * i + 1]))
def count [n] 't (_: [n]t) : i64 = n

entry main [n] (xs: [n]i32) (k: i64) =
  let a : [2][3]i32 = filled 7
  let b = map2 (+) xs zeros
  let c = pairs (take (2 * k) xs)
  in (a, b, c, count (zeros : [n]i32))
