-- The prelude's id is lifted ('^a): it passes functions, and tuples of them, through.
-- ==
-- input { 5i64 } output { 6i64 10i64 }

entry main (k: i64) =
  let (f, g) = id ((+ 1), (* 2))
  let h = id (\x -> x + k - k)
  in (h (f k), g k)
