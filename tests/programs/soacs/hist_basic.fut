-- hist (op ne k is vs): a fresh k-bin histogram; empty bins hold ne; out-of-range ignored.
-- ==
-- input { 4i64 [1i64, 3i64, 1i64, 7i64, -2i64, 1i64] }  output { [0, 3, 0, 1] [1, 1, 1, 3] }
-- input { 2i64 empty([0]i64) }                          output { [0, 0] [1, 1] }
-- input { 0i64 [0i64, 1i64] }                           output { empty([0]i32) empty([0]i32) }
entry main [n] (k: i64) (is: [n]i64) : ([]i32, []i32) =
  (hist (+) 0 k is (replicate n 1), hist (*) 1 k is (map (\i -> i32.i64 i) is))
