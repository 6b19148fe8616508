-- Sums of the rows of a matrix with few long rows: the segments are the rows of an
-- array (the map's parameter), not an index.
-- ==
-- input { 1i64 100000i64 } output { [499995i32] }
-- input { 4i64 30000i64 } output { [149988i32, 149997i32, 150006i32, 150004i32] }
-- input { 0i64 5i64 } output { empty([0]i32) }
-- input { 3i64 0i64 } output { [0i32, 0i32, 0i32] }
entry main (n: i64) (m: i64) : []i32 =
  let xss = unflatten n m (map (\x -> i32.i64 (x % 11)) (iota (n * m)))
  in map (\row -> reduce (+) 0 row) xss
