-- The program behind tests/library/opaque_test.c: entry points whose parameters and
-- results are records (named and anonymous), arrays of records, records of records and
-- of tuples, a module's abstract type and a sum type, which the C API passes as opaque
-- values (kerb_opaque_T).

type point = {x: f32, y: f32}
type seg = {from: point, to: point, tag: (i32, bool)}

module counter : {
  type~ t
  val make : i64 -> t
  val bump : t -> t
  val total : t -> i64
} = {
  type~ t = {hits: []i64, n: i64}
  def make (k: i64) : t = {hits = replicate k 0, n = k}
  def bump (c: t) : t = c with hits = map (+ 1) c.hits
  def total (c: t) : i64 = i64.sum c.hits + c.n
}

type shape = #circle f32 | #square f32 f32

entry norm2 (p: point) : f32 = p.x * p.x + p.y * p.y

entry swap (p: point) : point = {x = p.y, y = p.x}

entry mid (s: seg) : (point, i32) =
  ({x = (s.from.x + s.to.x) / 2, y = (s.from.y + s.to.y) / 2}, if s.tag.1 then s.tag.0 else -1)

entry make_seg (a: point) (b: point) (k: i32) : seg = {from = a, to = b, tag = (k, k > 0)}

entry scale (k: f32) (ps: []point) : []point = map (\p -> {x = k * p.x, y = k * p.y}) ps

entry xs_of (ps: []point) : []f32 = map (.x) ps

entry pick (ps: []point) (i: i64) : point = ps[i]

entry stats (xs: []f64) : {count: i64, mean: f64, data: []f64} =
  {count = length xs, mean = f64.sum xs / f64.i64 (length xs), data = xs}

entry counter_make (k: i64) : counter.t = counter.make k

entry counter_bump (c: counter.t) : counter.t = counter.bump c

entry counter_total (c: counter.t) : i64 = counter.total c

entry make_shape (r: f32) : shape = if r > 0 then #circle r else #square (-r) 1

entry area (s: shape) : f32 =
  match s
  case #circle r -> 3 * r * r
  case #square w h -> w * h

entry pair_ok (p: {a: i32, b: []i64}) : i64 = i64.i32 p.a + i64.sum p.b

entry gather_pts (ps: []point) (is: []i64) : []point = map (\i -> ps[i]) is
