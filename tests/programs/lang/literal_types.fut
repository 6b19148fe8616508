-- Literals and indices take their types from inference: a loop counter compared with
-- an i32 bound and stored into an i32 array is an i32 (the first-order checker sees
-- the literal's inferred type); a function indexing with an unannotated parameter
-- takes an i32 index, failing with the index's value, and one slicing with them takes
-- i64 bounds.
-- ==
-- input { [5, 5, 5, 5] 2 } output { [0, 1, 2, 5] 2 [1, 2] }
-- input { [5, 5, 5, 5] 4 } error: Index \[4\] out of bounds for array of shape \[4\]

def get xs i = xs[i]

def part xs a b = xs[a:b]

entry main (xs: *[]i32) (k: i32) =
  let ys = loop ys = copy xs for i < 3 do ys with [i] = i
  in (ys, get ys k, part ys 1i64 3i64)
