-- `==` and `!=` on arrays (of the same size, as their types say), nested arrays,
-- tuples, records and sum types.
-- ==
-- input { [1, 2, 3] [1, 2, 3] }  output { true false false true true false true }
-- input { [1, 2, 3] [1, 2, 4] }  output { false true false true true false true }
-- input { empty([0]i32) empty([0]i32) }  output { true false true true true false true }

type shape = #circle f32 | #rect f32 f32

entry main [n] (xs: [n]i32) (ys: [n]i32) =
  let s1 : shape = #rect 1 2
  let s2 : shape = #circle 1
  in (xs == ys, xs != ys, [xs] == [map (+ 1) xs], (1, [true]) == (1, [true]),
      {a = 1, b = 2.5} == {b = 2.5, a = 1}, s1 == s2, s1 != s2)
