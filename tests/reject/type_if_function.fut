-- An if may not give a function.
-- ==
-- error: type_if_function\.fut:5:11: error: If-expression returns type i32 -> i32, but if-results may not be of function type \(functional\)
def main (c: bool) (x: i32) =
  let f = if c then (+ 1) else (* 2)
  in f x
