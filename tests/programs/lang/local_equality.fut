-- A local function whose unannotated parameter is compared with == or != is not
-- polymorphic: its uses decide the parameter's type (here i32, a tuple and an array),
-- as in Futhark. A top-level one is rejected (tests/reject/type_equality_type_param.fut).
-- ==
-- input { [1, 2, 2] [2, 2, 3] }  output { [false, true, false] [true, false, true] true }
-- input { empty([0]i32) empty([0]i32) }  output { empty([0]bool) empty([0]bool) true }

entry main (xs: []i32) (ys: []i32) =
  let same a b = a == b
  let differ p = p.0 != p.1
  let equal_rows u v = u == v
  in (map2 same xs ys, map differ (zip xs ys), equal_rows [xs] [xs])
