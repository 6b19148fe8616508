-- Top-level constants made by a module's function whose module type makes its result
-- abstract: a function may return a part of a call's result that aliases them (Futhark
-- sees the constants' type as abstract, and such constants as aliasing nothing; Note
-- [Constants of abstract types] in check_consumption.cpp). The same constant of a type
-- the program can see into is rejected (tests/reject/modules/constant_alias.fut).
-- ==
-- entry: main
-- input { [1i64, 2i64] } output { [21i64, 22i64] 1i64 }
-- input { empty([0]i64) } output { empty([0]i64) 1i64 }

-- ==
-- entry: via_again
-- input { [5i64] } output { [15i64] }

module type counter = {
  type state
  val start : i64 -> state
  val step [n] : state -> [n]i64 -> ([n]i64, state)
  val count : state -> i64
}

module counter : counter = {
  type state = {base: [2]i64, steps: i64}
  def start (b: i64) : state = {base = [b, b], steps = 0}
  def step [n] (s: state) (xs: [n]i64) : ([n]i64, state) =
    (map (+ s.base[0]) xs, s with steps = s.steps + 1)
  def count (s: state) : i64 = s.steps
}

def initial = counter.start 10
def again = initial

entry main (xs: []i64) : ([]i64, i64) =
  let (ys, s) = counter.step initial xs
  in ((counter.step initial ys).0, counter.count s)

entry via_again (xs: []i64) : []i64 = (counter.step again xs).0
