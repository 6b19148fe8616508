-- Sums over ranges checked against closed forms.
-- ==
-- input { 100i64 } output { 4950i64 5050i64 2550i64 }
-- input { 1i64 } output { 0i64 1i64 0i64 }
entry main (n: i64) : (i64, i64, i64) =
  (reduce (+) 0 (0..<n), reduce (+) 0 (0...n), reduce (+) 0 (0..2...n))
