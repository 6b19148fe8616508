-- Field sections along a path: (.x.a) through nested records, (.1.b) through a tuple
-- of records, mapped over arrays of them.
-- ==
-- input { [1, 2] [3, 4] } output { [1, 2] [4, 6] }

entry main [n] (xs: [n]i32) (ys: [n]i32) =
  let rs = map2 (\x y -> {x = {a = x, b = y}, y}) xs ys
  let ts = map2 (\x y -> (x, {b = x + y})) xs ys
  in (map (.x.a) rs, map (.1.b) ts)
