-- Maps whose function gives arrays of a size it computes from the element: the sizes are
-- those of the first element, and every element must give the same (Futhark's "not all
-- iterations produce same shape", at the map). An `if` with a grid's column in one branch
-- and an array literal of 4 in the other (equal when the grid has 4 rows); a filter per
-- row; `iota` of an element (or a literal); two results, one of them sized by the element; a nested map
-- whose inner rows are sized by the element. Over no elements the map still runs (its
-- rows' size is then 0 compiled, and whatever the interpreter's trial call finds: the
-- outputs here do not show it).
-- ==
-- entry: columns
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32], [1f32, 1f32, 1f32]] }
-- output { [1f32, 4f32, 7f32, 1f32, 0f32, 1f32, 2f32, 3f32, 3f32, 6f32, 9f32, 1f32] }
-- input { [[1f32, 2f32], [4f32, 5f32], [7f32, 8f32]] }
-- error: not all iterations produce same shape
-- input { empty([4][0]f32) } output { empty([0]f32) }

-- ==
-- entry: odd_first
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32]] }
-- error: not all iterations produce same shape
-- input { [[1f32, 2f32, 3f32], [4f32, 5f32, 6f32], [7f32, 8f32, 9f32], [1f32, 1f32, 1f32]] }
-- output { [0f32, 1f32, 2f32, 3f32, 3f32, 6f32, 9f32, 1f32, 0f32, 1f32, 2f32, 3f32] }

-- ==
-- entry: above
-- input { [[3, 1, 4], [1, 5, 9], [2, 6, 5]] 2 }
-- output { [[3, 4], [5, 9], [6, 5]] }
-- input { [[3, 1, 4], [1, 5, 9], [2, 6, 1]] 2 }
-- error: not all iterations produce same shape

-- ==
-- entry: counts
-- input { [3i64, 3i64, 3i64] } output { [[0i64, 1i64, 2i64], [0i64, 1i64, 2i64], [0i64, 1i64, 2i64]] [3i64, 3i64, 3i64] }
-- input { [2i64, 0i64, 2i64] } output { [[0i64, 1i64], [-1i64, -1i64], [0i64, 1i64]] [2i64, 0i64, 2i64] }
-- input { [2i64, 2i64, 3i64] }
-- error: not all iterations produce same shape

-- ==
-- entry: nested
-- input { [[1, 2], [3, 4], [0, 0]] }
-- output { [[[1, 2], [1, 2]], [[3, 4], [3, 4]], [[7, 7], [7, 7]]] }
-- input { [[1, 2, 3], [-1, 0, 4]] }
-- error: not all iterations produce same shape

def column [n] [s] (grid: [n][s]f32) (i: i64) : []f32 =
  if i % 2 == 0 then grid[:, i] else [0, 1, 2, 3]

-- An element's column, or a literal of four (the grid's height only at run time).
entry columns [n] [s] (grid: [n][s]f32) : []f32 =
  flatten (tabulate s (\i -> column grid i))

-- The first element is the literal: the others are compared with its size.
entry odd_first [n] [s] (grid: [n][s]f32) : []f32 =
  flatten (tabulate s (\i -> column grid (i + 1)))

-- Each row's elements above t: as many in every row, or a failure.
entry above [n] (xss: [n][3]i32) (t: i32) : [][]i32 =
  map (\xs -> filter (> t) xs) xss

-- Two results: iota of a positive element (else two -1s), and the element.
entry counts (ns: []i64) : ([][]i64, []i64) =
  unzip (map (\n -> (if n > 0 then iota n else [-1, -1], n)) ns)

-- A nested map whose inner rows are a row or a literal of two.
entry nested [n] [m] (xss: [n][m]i32) : [][][]i32 =
  map (\xs -> map (\x -> if x > 0 then xs else [7, 7]) xs) xss
