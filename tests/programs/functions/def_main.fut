-- `def main` (not `entry`) is the default entry point; a top-level `let` defines a helper.
-- ==
-- input { 4i64 }  output { [0i64, 1i64, 4i64, 9i64] 14i64 }
let sq (x: i64) : i64 = x * x

def main (n: i64) : ([]i64, i64) =
  let ys = map sq (iota n)
  in (ys, reduce (+) 0 ys)
