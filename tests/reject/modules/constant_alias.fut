-- A function's result may not alias a top-level constant whose type the program can
-- see into: the state's type is not abstract here (no module type hides it), so the
-- first part of step's result aliases `initial`, as Futhark decides
-- (tests/programs/modules/abstract_constant.fut has the abstract case).
-- ==
-- error: constant_alias\.fut:15:35: error: Function result aliases the free variable "initial"\.
module counter = {
  type state = {base: [2]i64, steps: i64}
  def start (b: i64) : state = {base = [b, b], steps = 0}
  def step [n] (s: state) (xs: [n]i64) : ([n]i64, state) =
    (map (+ s.base[0]) xs, s with steps = s.steps + 1)
}

def initial = counter.start 10
entry main (xs: []i64) : []i64 = (counter.step initial xs).0
