-- An index that goes out of bounds on a late loop iteration.
-- ==
-- input { [1, 2, 3, 4] 4 } output { 10 }
-- input { [1, 2, 3, 4] 5 } error: Index \[4\] out of bounds for array of shape \[4\]\.[\s\S]*oob_in_loop\.fut:8:
-- input { [1, 2, 3, 4] 0 } output { 0 }
entry main (xs: []i32) (n: i32) : i32 =
  loop acc = 0 for i < n do
    acc + xs[i]
