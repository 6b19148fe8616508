-- Named functions and partial application as map arguments.
-- ==
-- input { [1, 2, 3] }  output { [1, 4, 9] [5, 8, 11] [6, 9, 12] }
-- input { empty([0]i32) }  output { empty([0]i32) empty([0]i32) empty([0]i32) }
def square (x: i32) : i32 = x * x

def affine (a: i32) (b: i32) (x: i32) : i32 = a * x + b

entry main (xs: []i32) =
  (map square xs, map (affine 3 2) xs, map (affine 3 3) xs)
