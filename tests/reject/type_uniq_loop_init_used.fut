-- The initial value of a consumed loop parameter is consumed: the body may not use
-- it, nor anything that aliases it.
-- ==
-- error: type_uniq_loop_init_used\.fut:7:32: error: Loop body uses variable "t" \(or an alias\), but this is consumed by the initial loop argument\.
def main (xs: *[]i32) : []i32 =
  let t = xs[1:]
  in loop ys = xs for i < 3 do ys with [i] = t[i]
