-- A program that does not compile although no compile error is expected.
-- ==
-- input { 1 } output { 1 }
entry main (x: i32) : i32 = x + true
