-- Operators of modules: a module defining +, * and ==, used inside it (where i32.(...)
-- gets the built-in ones back), through a local open M.(a + b) and a section (M.+);
-- the built-in operators outside it; a module's operator used infix (x M.+ y) and in
-- left and right sections.
-- ==
-- input { 1 2 3 4 } output { 4 6 -5 10 true 16 4 [3] [6] true }

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
  let (ire, _) = (a, b) complex.+ (c, d)
  let left = map ((a, b) complex.*) [(c, 0)] |> map (.0)
  let right = map (complex.+ (c, d)) [(c, 0)] |> map (.0)
  in (re, im, pre, pim, same, (reduce (complex.+) (0, 0) [(a, b), (c, d)]).0 * 2 + sre, ire,
      left, right, 1 f32.< 2.5)
