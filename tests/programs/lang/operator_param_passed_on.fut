-- An operator parameter `(<=)` passed on as a section `(<=)` to another function that
-- takes its own `(<=)`: the section must mean the caller's parameter, not the callee's
-- (defunctionalisation looked the name up in the callee and recursed until the stack
-- ran out: a sorting library's shape, a comparison handed down through its helpers).
-- ==
-- entry: smallest_f64
-- input { [3.5f64, -1f64, 2f64] } output { -1f64 }
-- input { [7f64] } output { 7f64 }

-- ==
-- entry: largest_i32
-- input { [3, 9, -4, 9, 0] } output { 9 }

-- ==
-- entry: ordered
-- input { [1i64, 2i64, 2i64, 5i64] } output { true }
-- input { [1i64, 3i64, 2i64] } output { false }

def pick 't ((<=): t -> t -> bool) (x: t) (y: t) : t = if x <= y then x else y

def best 't ((<=): t -> t -> bool) (xs: []t) : t =
  loop b = xs[0] for x in xs[1:] do pick (<=) b x

def twice_removed 't ((<=): t -> t -> bool) (xs: []t) : t = best (<=) xs

def sorted 't ((<=): t -> t -> bool) (xs: []t) : bool =
  let n = length xs
  in n < 2 || reduce (&&) true (map (\i -> xs[i] <= xs[i + 1]) (iota (n - 1)))

def check_sorted 't ((<=): t -> t -> bool) (xs: []t) : bool = sorted (<=) xs

entry smallest_f64 (xs: []f64) : f64 = twice_removed (f64.<=) xs

entry largest_i32 (xs: []i32) : i32 = twice_removed (>=) xs

entry ordered (xs: []i64) : bool = check_sorted (\a b -> a <= b) xs
