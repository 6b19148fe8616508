-- A numeric module's operator used infix (`n i64.== m`) is the built-in operator at that
-- type, also where a parameter redefines the operator (the containers library's
-- array.eq compares lengths so, with its own `(==)` on elements).
-- ==
-- input { [1, 2, 3] [3, 2, 1] } output { false true 7 }
-- input { [1, 2] [3, 4] }       output { true true 7 }

def eq [n] [m] 't ((==): t -> t -> bool) (x: [n]t) (y: [m]t) : bool =
  n i64.== m && (loop (ok, i) = (true, 0) while ok && i < n do (ok && (x[i] == y[i]), i + 1)).0

entry main (xs: []i32) (ys: []i32) =
  (eq (\a b -> a != b) xs ys, eq (\_ _ -> true) xs ys, 3 i32.+ 4)
