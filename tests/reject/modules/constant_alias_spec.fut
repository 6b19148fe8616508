-- A module type that defines its type (`type state = ...`) does not hide it: a
-- constant made by the module's function is of a type the program can see into, and
-- a function's result may not alias it, as Futhark decides (the abstract case is
-- tests/programs/modules/abstract_constant.fut).
-- ==
-- error: constant_alias_spec\.fut:21:35: error: Function result aliases the free variable "initial"\.
module type counter = {
  type state = {base: [2]i64, steps: i64}
  val start : i64 -> state
  val step [n] : state -> [n]i64 -> ([n]i64, state)
}

module counter : counter = {
  type state = {base: [2]i64, steps: i64}
  def start (b: i64) : state = {base = [b, b], steps = 0}
  def step [n] (s: state) (xs: [n]i64) : ([n]i64, state) =
    (map (+ s.base[0]) xs, s with steps = s.steps + 1)
}

def initial = counter.start 10
entry main (xs: []i64) : []i64 = (counter.step initial xs).0
