-- Higher-order functions: functions as arguments, results and let-bound values,
-- closures capturing values, partial application, every kind of section, the pipes and
-- composition operators, functions in tuples and records.
-- ==
-- input { 10 [1, 2, 3] }  output { [11, 12, 13] [9, 8, 7] [3, 6, 9] 21 [2, 4, 6] 15 [0, 1, 2] 12 }

def compose '^a '^b '^c (f: b -> c) (g: a -> b) : a -> c = \x -> f (g x)

def adder (n: i32) : i32 -> i32 = \x -> x + n

def fold_with (op: i32 -> i32 -> i32) (z: i32) (xs: []i32) = reduce op z xs

entry main (k: i32) (xs: []i32) =
  let add_k = adder k
  let ops = (add_k, (k -))
  let r = {f = (* 3), g = (.1)}
  let inc_then_double = compose (* 2) (+ 1)
  in (map add_k xs, map ops.1 xs, map r.f xs, fold_with (+) 0 xs + 15,
      xs |> map (i32.* 2), r.g (0, 15),
      map (\x -> x - 1) <| xs, (inc_then_double >-> (<-< ) (+ 0) (+ 2)) 4)

-- A closure that fails reports the failure where its code is: the index in the lambda,
-- the division in the local function (after defunctionalisation too).
-- ==
-- entry: lookup
-- input { [1, 2, 3] [0i64, 2i64] 1 }  output { [1, 3] [1, 3] }
-- input { [1, 2, 3] [0i64, 3i64] 1 }  error: Index \[3\] out of bounds for array of shape \[3\]
-- input { [1, 2, 3] [0i64] 0 }        error: division by zero

entry lookup (xs: []i32) (is: []i64) (d: i32) =
  let get = \i -> xs[i]
  let apply_all f = map f is
  let scale (x: i32) = x / d
  in (apply_all get, map (get >-> scale) is)
