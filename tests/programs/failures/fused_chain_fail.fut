-- A chain of maps feeding a reduction is fused into the reduction's kernel on the
-- compiled devices; a failure in the first map must still be reported, with its
-- message and location, and the result must not be returned.
-- ==
-- input { [1, 2, 3, 4] [0i64, 1i64, 2i64, 3i64] } output { 28 }
-- input { [1, 2, 3, 4] [0i64, 1i64, 9i64, 3i64] }
-- error: Index \[9\] out of bounds for array of shape \[4\][\s\S]*fused_chain_fail\.fut:10:22-26
-- input { [1, 0, 3, 4] [0i64, 1i64, 2i64, 3i64] } error: division by zero
entry main (xs: []i32) (is: []i64) : i32 =
  let a = map (\i -> xs[i]) is
  let b = map (\x -> 12 / x) a
  let c = map2 (\x y -> x * y / 12 + x) a b
  in reduce (+) 0 (map (* 2) (map (+ 0) c))
