-- A plain type parameter ('t) cannot be a function type; '^t can.
-- ==
-- error: type_plain_param_function\.fut:5:32: error: Cannot apply "pick" to "\(\+ 1\)" \(invalid type\): the second argument may not be a function \(its type is a type parameter written 't, not '\^t: functional\), but has type i32 -> i32
def pick 't (c: bool) (a: t) (b: t) : t = if c then a else b
def main (x: i32) = (pick true (+ 1) (* 2)) x
