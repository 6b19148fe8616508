-- Tuple patterns in let (nested, with wildcards) and in function parameters.
-- ==
-- input { 1 2 3 }  output { 6 -1 3 }
def sub_pair ((a, b): (i32, i32)) : i32 = a - b

entry main (x: i32) (y: i32) (z: i32) : (i32, i32, i32) =
  let (a, (b, c)) = (x, (y, z))
  let (_, _, third) = (a, b, c)
  in (a + b + c, sub_pair (a, b), third)
