-- opaque used as an optimisation barrier inside functions and as a map argument via a lambda.
-- ==
-- input { [1, 2, 3] }  output { [2, 3, 4] 9 }
def inc (x: i32) : i32 = opaque x + 1

entry main (xs: []i32) : ([]i32, i32) =
  let ys = map (\x -> opaque (inc x)) xs
  in (ys, opaque (reduce (+) 0 ys))
