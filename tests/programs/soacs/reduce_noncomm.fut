-- Associative but non-commutative reductions: decimal digit concatenation
-- (value, 10^digits) and composition of affine maps x -> a*x + b.
-- ==
-- input { [1, 2, 3, 4] [2, 1, 3] [1, 0, -1] }  output { 1234i64 10000i64 6 2 }
-- input { [7] [5] [9] }                         output { 7i64 10i64 5 9 }
-- input { empty([0]i32) empty([0]i32) empty([0]i32) }  output { 0i64 1i64 1 0 }
def cat (x: (i64, i64)) (y: (i64, i64)) : (i64, i64) = (x.0 * y.1 + y.0, x.1 * y.1)

-- apply f first, then g
def compose (f: (i32, i32)) (g: (i32, i32)) : (i32, i32) = (g.0 * f.0, g.0 * f.1 + g.1)

entry main [n] (ds: []i32) (as: [n]i32) (bs: [n]i32) : (i64, i64, i32, i32) =
  let (v, p) = reduce cat (0, 1) (map (\d -> (i64.i32 d, 10)) ds)
  let (a, b) = reduce compose (1, 0) (zip as bs)
  in (v, p, a, b)
