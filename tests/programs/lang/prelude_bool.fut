-- The prelude's functions on booleans: not, and, or.
-- ==
-- input { [true, false, true] } output { [false, true, false] false true }
-- input { empty([0]bool) } output { empty([0]bool) true false }

entry main (bs: []bool) : ([]bool, bool, bool) =
  (map not bs, and bs, or bs)
