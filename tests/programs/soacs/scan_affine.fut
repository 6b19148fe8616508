-- A non-commutative associative scan: prefix compositions of affine maps
-- x -> a*x + b, which solves the recurrence y[i] = a[i]*y[i-1] + b[i] with y[-1] = 0.
-- ==
-- input { [2, 3, 1, -1] [1, 2, 5, 4] }  output { [1, 5, 10, -6] }
-- input { empty([0]i32) empty([0]i32) }  output { empty([0]i32) }
def compose (f: (i32, i32)) (g: (i32, i32)) : (i32, i32) = (g.0 * f.0, g.0 * f.1 + g.1)

entry main [n] (as: [n]i32) (bs: [n]i32) : [n]i32 =
  map (\(_, b) -> b) (scan compose (1, 0) (zip as bs))
