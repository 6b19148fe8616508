-- Indexing an array of tuples and projecting a component; indexing a tuple's array component.
-- ==
-- input { [1, 2, 3] [4.0f32, 5.0f32, 6.0f32] 1i64 } output { 2 5.0f32 3 }
-- input { [1, 2, 3] [4.0f32, 5.0f32, 6.0f32] 0i64 } output { 1 4.0f32 3 }
entry main [n] (xs: [n]i32) (ys: [n]f32) (i: i64) : (i32, f32, i32) =
  let ps = zip xs ys
  let t = (xs, 0)
  in (ps[i].0, ps[i].1, (t.0)[2])
