-- Modules: structures, qualified names (M.x, M.N.x, M.t), open, local, include, a
-- local open M.(e), module types with val and type specs, and ascription.
-- ==
-- input { 3 } output { 6 10 36i64 10 [1, 2, 3] 5 }
-- input { -2 } output { 2 0 36i64 10 [1, 2, 3] 5 }

module counter = {
  type t = i32
  def zero : t = 0
  def step (x: t) : t = x + 2
  module inner = {
    def twice (x: i32) = x * 2
    def size : i64 = 36
  }
}

module type monoid = {
  type t
  val zero : t
  val op : t -> t -> t
}

module add : monoid = {
  type t = i32
  def zero = 0
  def op (x: t) (y: t) = x + y
}

module helpers = {
  local def secret (x: i32) = x + 100
  def public (x: i32) = secret x - 100
  include counter
}

module sums (M: monoid) = {
  def total (xs: []M.t) = reduce M.op M.zero xs
}

module isums = sums add

open helpers

def step_twice (x: counter.t) : counter.t = counter.step (counter.step x)

entry main (x: i32) =
  let y = counter.(step (step x)) - 1
  in (if x > 0 then y else public (step zero),
      counter.inner.twice (step x),
      counter.inner.size,
      isums.total [1, 2, 3, 4],
      [1, 2, 3] :> [3]helpers.t,
      counter.(inner.twice 2) + 1)
