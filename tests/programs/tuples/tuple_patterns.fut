-- Tuple patterns in let (nested, with wildcards) and in function parameters; a trailing
-- comma makes no 1-tuple: (x,) is x in patterns, expressions and types.
-- ==
-- input { 1 2 3 }  output { 6 -1 3 }
def sub_pair ((a, b): (i32, i32)) : i32 = a - b

def first (x: i32,) (_: (i32,)) : (i32,) = (x,)

entry main (x: i32) (y: i32) (z: i32) : (i32, i32, i32) =
  let (a, (b, c)) = (x, (y, z))
  let (_, _, third) = (a, b, c)
  in (a + b + c, sub_pair (a, b), first third 0)
