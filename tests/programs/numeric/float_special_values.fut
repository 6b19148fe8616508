-- Infinities and NaN flow through arithmetic and comparisons; NaN is unequal to everything.
-- ==
-- input { 1.0f64 } output { f64.inf -f64.inf true false false true }
-- input { -2.0f64 } output { -f64.inf f64.inf true false false true }
entry main (x: f64) : (f64, f64, bool, bool, bool, bool) =
  let inf = x / 0.0
  let n = inf - inf
  in (inf, -inf, f64.isnan n, n < 0.0 || n >= 0.0, n == n, f64.inf > 1e308)
