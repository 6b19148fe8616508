-- Kerb's demo program: gather values by index and average them. Every index is
-- checked: a bad one stops the program with Futhark's message and its location.
-- ==
-- input { [10.0, 20.0, 30.0, 40.0] [3, 0, 2] }
-- output { [40.0, 10.0, 30.0] 26.666666 }
-- input { [10.0, 20.0, 30.0, 40.0] [3, 7] }
-- error: Index \[7\] out of bounds for array of shape \[4\]
entry main (xs: []f32) (is: []i64) : ([]f32, f32) =
  let picked = map (\i -> xs[i]) is
  let mean = f32.sum picked / f32.i64 (length picked)
  in (picked, mean)
