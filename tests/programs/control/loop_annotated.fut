-- Loop parameters with type annotations, and a for-in loop over an inclusive range.
-- ==
-- input { 5i64 } output { 15i64 2.283333333333333f64 }
-- input { 0i64 } output { 0i64 0.0f64 }
entry main (n: i64) : (i64, f64) =
  let s = loop (acc: i64) = 0 for i in 0...n do acc + i
  let (h, _) = loop (acc: f64, k: f64) = (0.0, 1.0) for _i < n do
                 (acc + 1.0 / k, k + 1.0)
  in (s, h)
