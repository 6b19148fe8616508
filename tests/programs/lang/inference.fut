-- Type inference: parameters, lets and results without annotations, literals whose type
-- comes from their use, and Futhark's defaulting (i32 and f64) for literals nothing
-- constrains; a function whose parameter only meets literals is defaulted, not
-- generalised.
-- ==
-- input { [1, 2] 3 }  output { [2, 4] 5 7 2.5f64 [3i64, 4i64] [0, 1] }

def double xs = map (* 2) xs

def add3 x = x + 3

def main xs y =
  let a = 7
  let b = 2.5
  let zs = map (+ xs[0]) (double xs)
  let is = map i64.i32 xs
  in (double xs, add3 (y - 1) + 0, a, b, map (+ (length xs)) is, map (\z -> z - zs[0] + 2) xs)
