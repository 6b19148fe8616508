-- A module's values are seen at the types its module type specifies (Note [Value
-- specifications]): a parametric module's `def copy = copy` is a function of f32 arrays
-- in `kernels f32`, so an entry point may be it (Futhark's babelstream); the values of
-- a module made in place as an argument take the parameter's types (`zero` is an i64
-- there, not an i32). A module that is only named in an ascription (`module N : S = M`)
-- is shared: M.id stays polymorphic. A type the module declares after the value (the
-- second `open` of game_of's body declares cell again) is known by its definition.
-- ==
-- entry: f32_copy
-- input { [1f32, 2f32] } output { [1f32, 2f32] }
-- ==
-- entry: f32_add
-- input { [1f32, 2f32] [3f32, 4f32] } output { [4f32, 6f32] }
-- ==
-- entry: others
-- input { 2.5f32 7 } output { 2.5f32 7 5i64 }
-- ==
-- entry: life
-- input { [true, false] } output { [false, true] [0, 1] }

module type kernels = {
  type t
  val copy [n] : [n]t -> *[n]t
  val add [n] : [n]t -> [n]t -> [n]t
}

module kernels (P: real) : kernels with t = P.t = {
  type t = P.t
  def copy = copy
  def add = map2 (P.+)
}

module f32_kernels = kernels f32
entry f32_copy = f32_kernels.copy
entry f32_add = f32_kernels.add

module M = { def id x = x }
module N : { val id : i32 -> i32 } = M

module count (C: { val zero : i64  val step : i64 -> i64 }) = {
  def run (n: i32) = loop x = C.zero for _i < n do C.step x
}
module c = count { def zero = 0  def step x = x + 1 }

entry others (x: f32) (y: i32) = (M.id x, N.id y, c.run 5)

module type rules = { type cell  val step : cell -> cell  val value : cell -> i32 }
module type game = { type cell  val step [n] : [n]cell -> [n]cell  val show [n] : [n]cell -> [n]i32 }
module steps (R: rules) = { type cell = R.cell  def step = map R.step }
module shows (R: rules) = { type cell = R.cell  def show = map R.value }
module game_of (R: rules) : game with cell = R.cell = { open (steps R)  open (shows R) }
module bool_game = game_of { type cell = bool  def step (c: bool) = !c  def value (c: bool) = i32.bool c }

entry life (cs: []bool) = let next = bool_game.step cs in (next, bool_game.show next)
