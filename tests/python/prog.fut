-- The program behind the Python package's tests (tests/python/*.py): gathers (checked
-- indexing), scalars of several types, tuples in and out, sizes named across parameters,
-- a fixed size, 2-D arrays, bools, a result that is its argument, and failures of an
-- index, a division and an assert; records in and out (Python namedtuples) and a
-- module's abstract type.

-- The elements of xs at the positions in is.
entry gather [n] [m] (xs: [n]f32) (is: [m]i64) : [m]f32 = map (\i -> xs[i]) is

entry mean (xs: []f32) : f32 = reduce (+) 0 xs / f32.i64 (length xs)

entry scale [n] (a: f32) (xs: [n]f32) (ys: [n]f32) : [n]f32 = map2 (\x y -> a * x + y) xs ys

entry divide (a: i32) (b: i32) : i32 = a / b

entry root (x: f64) : f64 = assert (x >= 0) (f64.sqrt x)

entry swap (p: (i32, f32)) : (f32, i32) = (p.1, p.0)

entry pairs (ps: [](i64, f32)) : []f32 = map (\(i, x) -> f32.i64 i + x) ps

entry three (xs: [3]i32) : i32 = xs[0] + xs[1] + xs[2]

entry row_sums [n] [m] (xss: [n][m]i32) : [n]i32 = map (\xs -> reduce (+) 0 xs) xss

entry flip (bs: []bool) : []bool = map (\b -> !b) bs

entry same (xs: []i64) : []i64 = xs

entry small (a: u8) (b: i16) (h: f16) : (u8, i16, f16) = (a + 1, b - 1, h * 2)

type point = {x: f32, y: f32}

entry norm2 (p: point) : f32 = p.x * p.x + p.y * p.y

entry mirror (p: point) (k: i32) : (point, i32) = ({x = p.y, y = p.x}, k + 1)

entry centroid (ps: []point) : {at: point, n: i64} =
  {at = {x = f32.sum (map (.x) ps) / f32.i64 (length ps), y = f32.sum (map (.y) ps) / f32.i64 (length ps)},
   n = length ps}

module tally : {
  type~ t
  val make : i64 -> t
  val total : t -> i64
} = {
  type~ t = {counts: []i64, base: i64}
  def make (n: i64) : t = {counts = iota n, base = n}
  def total (t: t) : i64 = i64.sum t.counts + t.base
}

entry tally_make (n: i64) : tally.t = tally.make n

entry tally_total (t: tally.t) : i64 = tally.total t
