-- Parametric modules: a module applied to two arguments gives two sets of
-- definitions; parameters with types and values; two parameters; a module expression
-- as the argument; application inside another parametric module; the result ascribed.
-- ==
-- input { [3, 1, 2] } output { 6 [6, 2, 4] 3.5f32 6 [3, 2, 1] 8 }

module type elem = {
  type t
  val plus : t -> t -> t
  val zero : t
}

module i32_elem : elem with t = i32 = {
  type t = i32
  def plus (a: i32) (b: i32) = a + b
  def zero = 0i32
}

module f32_elem = {
  type t = f32
  def plus (a: f32) (b: f32) = a + b
  def zero = 0f32
}

module vec (E: elem) = {
  type t = E.t
  def sum (xs: []t) = reduce E.plus E.zero xs
  def double (xs: []t) = map (\x -> E.plus x x) xs
}

module ivec = vec i32_elem
module fvec = vec f32_elem

module pair (A: elem) (B: elem) : { val first [n] : [n]A.t -> A.t  val second [n] : [n]B.t -> B.t } = {
  module va = vec A
  module vb = vec B
  def first (xs: []A.t) = va.sum xs
  def second (xs: []B.t) = vb.sum xs
}

module both = pair i32_elem f32_elem

module prod = vec { type t = i32  def plus (a: i32) (b: i32) = a * b  def zero = 1i32 }

module rev (E: elem) = {
  def reverse (xs: []E.t) = xs[::-1]
}

module irev = rev i32_elem

entry main (xs: []i32) =
  (ivec.sum xs, ivec.double xs, both.second [1.5, 2], prod.sum [2, 3],
   irev.reverse [1, 2, 3], both.first [3, 5])
