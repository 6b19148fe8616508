-- map5 over five arrays; the result depends on every argument's position.
-- ==
-- input { [1, 2] [3, 4] [5, 6] [7, 8] [9, 10] }  output { [13579, 24690] }
-- input { empty([0]i32) empty([0]i32) empty([0]i32) empty([0]i32) empty([0]i32) }  output { empty([0]i32) }
entry main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) (e: [n]i32) : [n]i32 =
  map5 (\v w x y z -> v * 10000 + w * 1000 + x * 100 + y * 10 + z) a b c d e
