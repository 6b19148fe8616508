-- A malformed test block is a failure with its line number.
-- ==
-- input { 1 } outptu { 2 }
entry main (x: i32) : i32 = x
