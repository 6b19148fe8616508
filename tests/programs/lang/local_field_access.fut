-- A local function that takes a field of its unannotated parameter is not
-- polymorphic in the field's type: its use decides both (a tuple component, a record
-- field).
-- ==
-- input { 3 4 } output { 3 4 7 }

entry main (x: i32) (y: i32) =
  let first v = v.0
  let get_b r = r.b
  let sum_ab r = r.a + r.b
  in (first (x, y), get_b {a = x, b = y}, sum_ab {b = y, a = x, c = true})
