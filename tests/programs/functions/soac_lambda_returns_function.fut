-- A lambda given to a SOAC may take fewer parameters than the SOAC gives it when its body
-- is a function of the rest (rodinia's particlefilter maps `\x -> map2 (...) ys` over two
-- arrays); also a lambda returning a lambda, for map2, reduce and scan.
-- ==
-- input { [[1, 2], [3, 4]] }
-- output { [[0i64, 2i64], [3i64, 5i64]] [31, 43] 10 [1, 3, 6, 10] }
-- input { [[0, 0], [5, 0]] }
-- output { [[-1i64, 0i64], [5i64, 1i64]] [50, 5] 5 [0, 0, 5, 5] }

entry main [n] (xss: [n][n]i32) =
  let centre = 1i64
  in ( xss |> map2 (\x -> map2 (\y v -> i64.i32 v + x + y - centre) (iota n)) (iota n)
     , map2 (\x -> \y -> x + 10 * y) (map (\r -> r[0]) xss) (map (\r -> r[1]) (transpose xss))
     , reduce (\a -> \b -> a + b) 0 (flatten xss)
     , scan (\a -> (+) a) 0 (flatten xss)
     )
