-- filter over an array of tuples, then use the length of the result.
-- ==
-- input { [1, 2, 3, 4, 5] [10.0f32, 20.0f32, 30.0f32, 40.0f32, 50.0f32] }
-- output { [2, 4] [20.0f32, 40.0f32] 2i64 }
-- input { [1, 3] [1.0f32, 2.0f32] }
-- output { empty([0]i32) empty([0]f32) 0i64 }
entry main [n] (ks: [n]i32) (vs: [n]f32) : ([]i32, []f32, i64) =
  let kept = filter (\(k, _) -> k % 2 == 0) (zip ks vs)
  let (a, b) = unzip kept
  in (a, b, length kept)
