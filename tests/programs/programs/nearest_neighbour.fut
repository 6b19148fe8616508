-- Nearest neighbour: for each query point, the index of and squared distance to the
-- closest reference point (ties to the lower index), as a nested map with an argmin reduce.
-- ==
-- input { [0, 4, 10, -3] [0, 4, 0, 7] [0, 2, 10, 4, -2] [0, 3, 1, -1, 6] }
-- output { [0i64, 1i64, 2i64, 0i64, 3i64] [0, 5, 1, 17, 2] }
-- input { [5] [5] [0] [0] }  output { [0i64] [50] }
-- input { [1, 2] [1, 2] empty([0]i32) empty([0]i32) }  output { empty([0]i64) empty([0]i32) }
def argmin (a: (i32, i64)) (b: (i32, i64)) : (i32, i64) =
  if b.0 < a.0 || (b.0 == a.0 && b.1 < a.1) then b else a

entry main [n][q] (rx: [n]i32) (ry: [n]i32) (qx: [q]i32) (qy: [q]i32) : ([q]i64, [q]i32) =
  let res = map2 (\x y ->
                    let ds = map2 (\a b -> (a - x) * (a - x) + (b - y) * (b - y)) rx ry
                    in reduce argmin (i32.highest, -1) (zip ds (iota n)))
                 qx qy
  let (d, i) = unzip res
  in (i, d)
