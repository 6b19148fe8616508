-- A size the loop changes may not become the size of something outside the loop.
-- ==
-- error: type_size_loop_escape\.fut:6:36: error: Loop-variant size has escaped into type that occurs outside of loop\. This is likely because the loop body uses a variable whose type depends on the loop parameter\.
def grow [h] (xs: [h]f64) = map (\_ -> 0.0) (iota (h + 1))
def step [d] (xs: [d]f64) (ys: [d + 1]f64) : [d + 1]f64 = map2 (+) (grow xs) ys
def main (xs: []f64) (ys: []f64) = loop xs for _i < 2 do step xs ys
