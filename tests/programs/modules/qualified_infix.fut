-- Inside a module, a numeric module's operator used infix (`n i64.== m`) is the built-in
-- one even where a parameter redefines the operator (pbbs/removeDuplicates' containers
-- library).
-- ==
-- input { [1, 2, 3] [3, 2, 1] } output { false true }
-- input { [1, 2] [3, 4] }       output { true true }

module array = {
  def eq [n] [m] 't ((==): t -> t -> bool) (x: [n]t) (y: [m]t) : bool =
    n i64.== m && (loop (ok, i) = (true, 0) while ok && i < n do (ok && (x[i] == y[i]), i + 1)).0
}

entry main (xs: []i32) (ys: []i32) = (array.eq (\a b -> a != b) xs ys, array.eq (\_ _ -> true) xs ys)
