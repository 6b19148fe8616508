-- Tuple projection .0 .1 .2, including on nested tuples and on a function result.
-- ==
-- input { 3 4.5f32 true }  output { 4.5f32 3 true 7 }
def swap (a: i32, b: f32) : (f32, i32) = (b, a)

entry main (x: i32) (y: f32) (z: bool) : (f32, i32, bool, i32) =
  let t = (x, (y, z))
  in ((swap (x, y)).0, t.0, (t.1).1, (t.0, t.0 + 4).1)
