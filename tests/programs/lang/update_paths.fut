-- In-place updates along a path of indices and fields: `[i][j]` is `[i, j]`, a field
-- after an index updates the element's field, an index after a field the field's array;
-- records of one array field in arrays are arrays of arrays underneath.
-- ==
-- input { 1i64 7 }  output { [[1, 2], [3, 7]] [8, 3] 7 [0, 7, 0] 7 }
-- input { 2i64 7 }  error: Index \[2, 1\] out of bounds for array of shape \[2\]\[2\]

entry main (i: i64) (v: i32) =
  let xss = [[1, 2], [3, 4]] with [i][1] = v
  let ps = [{a = 1, b = 2}, {a = 3, b = 4}]
  let ps[0].a = v + 1
  let r = {xs = [0, 0, 0], n = 1}
  let r = r with xs[r.n] = v
  let rows = [{c = [1, 2, 3]}, {c = [4, 5, 6]}]
  let rows = rows with [1].c[2] = v
  in (xss, map (.a) ps, ps[1].b * 2 - 1, r.xs, rows[1].c[2])
