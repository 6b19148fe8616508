-- Entry points that take and return records (docs/CONVENTIONS.md): a record is given and
-- printed as its fields in name order, each flattened as a parameter is (a record field
-- as its own fields, a tuple field as its components, an array of records as its field
-- arrays); a module's abstract type of a record likewise. The C API passes them as opaque
-- values instead (tests/library/opaque.fut).
-- ==
-- entry: swap
-- input { 1f32 2f32 }  output { 2f32 1f32 }
-- ==
-- entry: make_seg
-- input { 1f32 2f32 3f32 4f32 7 }  output { 1f32 2f32 7 true 3f32 4f32 }
-- input { 1f32 2f32 3f32 4f32 -7 }  output { 1f32 2f32 -7 false 3f32 4f32 }
-- ==
-- entry: seg_length2
-- input { 0f32 0f32 5 true 3f32 4f32 }  output { 25f32 }
-- ==
-- entry: scale
-- input { 2f32 [1f32, 2f32] [10f32, 20f32] }  output { [2f32, 4f32] [20f32, 40f32] }
-- ==
-- entry: stats
-- input { [1.0, 2.0, 6.0] }  output { 3i64 [1.0, 2.0, 6.0] 3.0 }
-- ==
-- entry: counter_total
-- input { [1i64, 2i64] 10i64 }  output { 13i64 }

type point = {y: f32, x: f32}
type seg = {to: point, from: point, tag: (i32, bool)}

module counter : {
  type~ t
  val total : t -> i64
} = {
  type~ t = {n: i64, hits: []i64}
  def total (c: t) : i64 = i64.sum c.hits + c.n
}

entry swap (p: point) : point = {x = p.y, y = p.x}

entry make_seg (a: point) (b: point) (k: i32) : seg = {from = a, to = b, tag = (k, k > 0)}

entry seg_length2 (s: seg) : f32 =
  let dx = s.to.x - s.from.x
  let dy = s.to.y - s.from.y
  in if s.tag.1 then dx * dx + dy * dy else 0

entry scale (k: f32) (ps: []point) : []point = map (\p -> {x = k * p.x, y = k * p.y}) ps

entry stats (xs: []f64) : {mean: f64, count: i64, data: []f64} =
  {count = length xs, mean = f64.sum xs / f64.i64 (length xs), data = xs}

entry counter_total (c: counter.t) : i64 = counter.total c
