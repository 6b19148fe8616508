-- Functions that take the unit value `()`: constants computed on a call, a unit
-- parameter among others, `()` passed on, a unit component of a tuple parameter and
-- a unit pattern in a let. The compiled code once stopped with an internal compiler
-- error ("pattern bound to a value of another shape") where the interpreter ran them.
-- ==
-- input { 1 [1i64, 0i64] }  output { [8, 9, 10] 2 }
-- input { 2 [5i64] }        error: Index \[5\] out of bounds for array of shape \[3\]

def f () : [3]i32 = map i32.i64 (iota 3)

def get_int () : i32 = 7

def pick () (xs: [3]i32) (i: i64) : i32 = xs[i]

def pass_on (u: ()) : i32 = get_int u - 6

def second ((_, x): ((), i32)) : i32 = x

entry main (x: i32) (is: []i64) : ([3]i32, i32) =
  let () = ()
  let ys = map (+ (x + get_int ())) (f ())
  in (ys, pass_on () + second ((), 1) + i32.sum (map (pick () (f ())) is) - 1 + x - x)
