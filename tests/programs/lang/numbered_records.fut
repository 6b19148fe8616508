-- A record whose fields are 0 .. n-1 is a tuple: as a literal (fields in any order), a
-- pattern and a type.
-- ==
-- input { 2 } output { 3 2 5 true }

def swap (p: {0: i32, 1: i32}) : (i32, i32) = (p.1, p.0)

entry main (x: i32) =
  let {1 = b, 0 = a} = {1 = x, 0 = x + 1}
  let (c, d) = swap (a, b)
  in (a, c, c + x + 1, {0 = d, 1 = true}.1)
