-- Boolean literals and their use as values and in conditions.
-- ==
-- input { true }  output { true false false true }
-- input { false } output { false true false false }
entry main (b: bool) : (bool, bool, bool, bool) =
  (b == true, b == false, b && false, if b then true else false)
