-- 2^20 elements generated with iota; results checked against closed forms
-- (n(n-1)/2, ceil(n/2) evens, wrapped i32 sum of squares, sum of i mod 7, xor of 0..n-1, max).
-- ==
-- input { 1048576i64 } output { 549755289600i64 524288i64 1431830528 3145722i64 0i64 1048575i64 }
-- input { 1000i64 } output { 499500i64 500i64 332833500 2997i64 0i64 999i64 }
-- input { 1i64 } output { 0i64 1i64 0 0i64 0i64 0i64 }
entry main (n: i64) : (i64, i64, i32, i64, i64, i64) =
  let xs = iota n
  let total = reduce (+) 0 xs
  let evens = i64.sum (map (\i -> if i % 2 == 0 then 1 else 0) xs)
  let squares = reduce (+) 0 (map (\i -> let j = i32.i64 i in j * j) xs)
  let mod7 = reduce (+) 0 (map (\i -> i % 7) xs)
  let x = loop x = 0i64 for i < n do x ^ i
  let mx = reduce (\a b -> i64.max a b) 0 xs
  in (total, evens, squares, mod7, x, mx)
