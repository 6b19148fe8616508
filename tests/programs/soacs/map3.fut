-- map3 combining three arrays (fused multiply-add on i64).
-- ==
-- input { [1i64, 2i64, 3i64] [4i64, 5i64, 6i64] [7i64, 8i64, 9i64] }  output { [11i64, 18i64, 27i64] }
-- input { empty([0]i64) empty([0]i64) empty([0]i64) }  output { empty([0]i64) }
entry main [n] (a: [n]i64) (b: [n]i64) (c: [n]i64) : [n]i64 =
  map3 (\x y z -> x * y + z) a b c
