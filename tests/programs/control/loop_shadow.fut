-- The loop parameter shadows an outer binding; the outer value is untouched afterwards.
-- ==
-- input { 3 } output { 24 3 }
-- input { 0 } output { 0 0 }
entry main (x: i32) : (i32, i32) =
  let y = loop x = x for _i < 3 do x * 2
  in (y, x)
