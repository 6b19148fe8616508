-- Raw moments, for stats.fut (imported with `local import`: not visible in imports.fut).

module moments = {
  def first (xs: []f64) = f64.sum xs / f64.i64 (length xs)
  def second (xs: []f64) = f64.sum (map (\x -> x * x) xs) / f64.i64 (length xs)
}
