-- Partial application of named functions with several parameters.
-- ==
-- input { [1, 2, 3] }  output { [11, 12, 13] [110, 120, 130] [7, 14, 21] }
def add (a: i32) (b: i32) : i32 = a + b

def mul_add (m: i32) (a: i32) (x: i32) : i32 = (x + a) * m

def scale3 (x: i32) (y: i32) (z: i32) : i32 = x * y * z

entry main (xs: []i32) : ([]i32, []i32, []i32) =
  (map (add 10) xs, map (mul_add 10 10) xs, map (scale3 7 1) xs)
