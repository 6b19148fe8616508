-- The numeric modules as modules: aliases (module real = f32), parameters of Futhark's
-- module type real instantiated with f32 and f64, R.t, R.sqrt, R.i64, a local open
-- R.(...) of built-in operators and members, operator sections (R.+), open f64.
-- ==
-- input { [3f32, 4f32] [1f64, 2f64, 2f64] }
-- output { 5f32 3f64 7f32 5.0f64 2i64 2f32 }

module real = f32

module norms (R: real) = {
  type t = R.t
  def norm (xs: []t) : t = R.sqrt (reduce (R.+) (R.i64 0) (map (\x -> R.(x * x)) xs))
  def mean (xs: []t) : t = R.(sum xs / i64 (length xs))
  def halve (x: t) = R.(x / from_fraction 2 1)
}

module n32 = norms real
module n64 = norms f64

def total (xs: []real.t) : real.t = real.sum xs

def fives = let open_f64 = f64.(sqrt 25) in open_f64

def count = i64.(3 - 1)

entry main (xs: []f32) (ys: []f64) =
  (n32.norm xs, n64.norm ys, total xs, fives, count, n32.halve 4)
