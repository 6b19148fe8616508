-- #[unsafe] does not hide a division by zero in the interpreter either.
-- ==
-- input { 10 5 } output { 2 }
-- input { 10 0 } error: division by zero
entry main (a: i32) (b: i32) : i32 =
  #[unsafe] (a / b)
