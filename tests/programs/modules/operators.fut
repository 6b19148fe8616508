-- Operators of modules: a module defining +, * and ==, used inside it (where i32.(...)
-- gets the built-in ones back), through a local open M.(a + b) and a section (M.+);
-- the built-in operators outside it.
-- ==
-- input { 1 2 3 4 } output { 4 6 -5 10 true 16 }

module complex = {
  type t = (i32, i32)
  def (+) ((a, b): t) ((c, d): t) : t = i32.((a + c, b + d))
  def (*) ((a, b): t) ((c, d): t) : t = i32.((a * c - b * d, a * d + b * c))
  def (==) ((a, b): t) ((c, d): t) = i32.(a == c && b == d)
  def sum (xs: []t) = reduce (+) (0, 0) xs
}

entry main (a: i32) (b: i32) (c: i32) (d: i32) =
  let (re, im) = complex.((a, b) + (c, d))
  let (pre, pim) = complex.((a, b) * (c, d))
  let (sre, _) = complex.sum [(a, b), (c, d), (a + c, 0)]
  let same = complex.((a, b) == (a, b))
  in (re, im, pre, pim, same, (reduce (complex.+) (0, 0) [(a, b), (c, d)]).0 * 2 + sre)
