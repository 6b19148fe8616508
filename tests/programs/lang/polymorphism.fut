-- Polymorphic functions: explicit type parameters ('t, '^t for functions), parameters
-- whose types are inferred and generalised, instantiated at several types in one
-- program, with sizes, in local functions.
-- ==
-- input { [3, 1, 2] [1.5f32, 2.5f32] }  output { 2 [1.5f32, 2.5f32] 1.5f32 3 [true, false] 3i64 [2, 1, 3] }

def swap 'a 'b ((x, y): (a, b)) : (b, a) = (y, x)

def last_of 't [n] (xs: [n]t) : t = xs[n - 1]

def apply_twice '^f (g: f -> f) (x: f) : f = g (g x)

def rev_if cond xs = if cond then reverse xs else xs

def count p xs = length (filter p xs)

entry main (is: []i32) (fs: []f32) =
  let id' x = x
  in (last_of is, id' fs, swap (last_of is + 1, fs[0]) |> swap |> (\(a, b) -> (b, a)),
      map (id' >-> (> 1)) is[1:] |> rev_if true, count (> 0) is, apply_twice (rev_if true) is
      |> rev_if true |> map id')
