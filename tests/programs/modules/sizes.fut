-- A module's constant used as a size, qualified (C.n) and unqualified inside an opened
-- parameter, in types of a parametric module applied twice.
-- ==
-- input { 5 } output { [5, 5, 5] [6, 6] 5i64 }

module type consts = { val n : i64 }

module buffers (C: consts) = {
  type buf = [C.n]i32
  def fill (x: i32) : buf = replicate C.n x
  open C
  def bump (b: [n]i32) : [n]i32 = map (+ 1) b
}

module b3 = buffers { def n : i64 = 3 }
module b2 = buffers { def n : i64 = 2 }

entry main (x: i32) = (b3.fill x, b2.bump (b2.fill x), i64.i32 x)
