-- In-place update with `with`, leaving the original array (a parameter) unchanged.
-- ==
-- input { [1, 2, 3] 1i64 9 } output { [1, 9, 3] [1, 2, 3] }
-- input { [1, 2, 3] 2i64 -1 } output { [1, 2, -1] [1, 2, 3] }
entry main (xs: []i32) (i: i64) (v: i32) : ([]i32, []i32) =
  let ys = copy xs with [i] = v
  in (ys, xs)
