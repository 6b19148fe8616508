-- Type abbreviations: plain, parametric over types and sizes, of tuples, records, sums
-- and functions (with `type^`), used in parameters, results and ascriptions.
-- ==
-- input { [1.0f32, 2.0f32, 3.0f32] }  output { 6.0f32 [2.0f32, 4.0f32, 6.0f32] 1i64 3.0f32 }

type real = f32
type vec [n] = [n]real
type pair 'a = (a, a)
type point = {x: real, y: real}
type shape = #circle real | #square real
type^ op 'a = a -> a -> a

def dot [n] (a: vec [n]) (b: vec [n]) : real = f32.sum (map2 (*) a b)

def apply (f: op real) (p: pair real) : real = f p.0 p.1

entry main (xs: []f32) =
  let p : point = {x = 1, y = 2}
  let s : shape = #square 3
  let area = match s
             case #circle r -> r * r * 3
             case #square a -> a
  in (dot xs (map (const 1) xs), map (* p.y) xs, length [p] : i64, apply (+) (area, 0))
