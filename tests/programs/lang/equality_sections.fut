-- `==` and `!=` as functions on values that are not primitive: sections and `(==)` given
-- to map, map2 and filter on tuples, arrays and records (Futhark's `==` works on any type
-- without functions).
-- ==
-- input { 1 2 [1, 2, 1] [2, 1, 2] }
-- output { [true, false, true] [false, true, false] [true, true, true] 2i64 [false, true] [true, false] }
-- input { 2 1 [1, 2] [2, 1] }
-- output { [false, true] [true, false] [true, true] 1i64 [false, true] [true, false] }

entry main (a: i32) (b: i32) (xs: []i32) (ys: []i32) =
  let pairs = zip xs ys
  let key = (a, b)
  in ( map (== key) pairs
     , map ((a, b) !=) pairs
     , map2 (==) pairs (map (\(x, y) -> (x, y)) pairs)
     , length (filter (== {x = a, y = b}) (map (\(x, y) -> {x, y}) pairs))
     , map (== [a, b]) [[b, a], [a, b]]
     , map2 (!=) [[a], [b]] [[b], [b]]
     )
