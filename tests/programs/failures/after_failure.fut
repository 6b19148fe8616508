-- Kernels launched after a failed one must not act on its garbage: here the gather
-- fails, and the reduction after it (whose operator loops) must stop at once; the
-- failure is the gather's.
-- ==
-- input { [1, 2, 3] [0i64, 2i64] } output { 4 [1, 3] }
-- input { [1, 2, 3] [0i64, 7i64] }
-- error: Index \[7\] out of bounds for array of shape \[3\][\s\S]*after_failure\.fut:9:22-26
entry main (xs: []i32) (is: []i64) : (i32, []i32) =
  let a = map (\i -> xs[i]) is
  let s = reduce (\x y -> loop acc = x for _j < 1 do acc + y) 0 a
  in (s, map (\i -> xs[i]) is)
