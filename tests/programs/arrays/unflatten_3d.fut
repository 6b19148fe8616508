-- unflatten_3d and unflatten_4d (Futhark's prelude: unflatten_3d [n][m][l] (xs: [n * m *
-- l]t) : [n][m][l]t = unflatten (unflatten xs)): the sizes come from the argument's
-- [a * b * c], here a coercion; also passed to map. A product
-- that matches the length but has a negative factor passes the coercion and fails in
-- the unflatten that splits it.
-- ==
-- entry: three
-- input { 2i64 1i64 3i64 [1, 2, 3, 4, 5, 6] }
-- output { [[[1, 2, 3]], [[4, 5, 6]]] [[[[1], [2], [3]]], [[[4], [5], [6]]]] [[[0i64, 1i64, 2i64]], [[3i64, 4i64, 5i64]]] }
-- input { 0i64 5i64 2i64 empty([0]i32) }
-- output { empty([0][5][2]i32) empty([0][5][2][1]i32) empty([0][5][2]i64) }
-- input { 2i64 2i64 2i64 [1, 2, 3] }
-- error: cannot match shape of type
-- input { -1i64 -2i64 3i64 [1, 2, 3, 4, 5, 6] }
-- error: Cannot unflatten.*\[-1\]\[-2\]
-- ==
-- entry: passed
-- input { [[1, 2], [3, 4]] } output { [[[[1, 2]], [[3, 4]]]] }

entry three [k] (a: i64) (b: i64) (c: i64) (xs: [k]i32) =
  let ys = xs :> [a * b * c]i32
  in (unflatten_3d ys, unflatten_4d (ys :> [a * b * c * 1]i32), unflatten_3d (iota (a * b * c) :> [a * b * c]i64))

entry passed (xss: [][]i32) : [][][][]i32 =
  map unflatten_3d [flatten xss :> [2 * 1 * 2]i32]
