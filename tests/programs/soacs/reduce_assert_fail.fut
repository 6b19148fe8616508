-- An assert inside a reduction operator: with non-negative inputs the final combine
-- sees the total, so the reduction fails exactly when the total reaches 100.
-- ==
-- input { [10, 20, 30] }      output { 60 }
-- input { [10, 20, 30, 40] }  error: Assertion is false: a \+ b < 100
-- input { empty([0]i32) }     output { 0 }
entry main (xs: []i32) : i32 =
  reduce (\a b -> assert (a + b < 100) (a + b)) 0 xs
