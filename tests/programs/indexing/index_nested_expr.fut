-- Indexing the result of an expression: a parenthesised if, a function call, a slice.
-- ==
-- input { [1, 2, 3, 4] true } output { 2 3 4 }
-- input { [1, 2, 3, 4] false } output { 4 3 4 }
def rev (xs: []i32) : []i32 = reverse xs
entry main (xs: []i32) (b: bool) : (i32, i32, i32) =
  ((if b then xs else rev xs)[1] + (if b then 0 else 1), (rev xs)[1], xs[2:][1])
