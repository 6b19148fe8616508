-- Loop parameters may not be functions.
-- ==
-- error: type_loop_function\.fut:5:16: error: Loop parameter inferred to have type i32 -> i32, but a loop parameter may not be of function type \(functional\)
def main (n: i32) =
  let g = loop f = (+ 1) for i < n do (\x -> f x + 1)
  in g 0
