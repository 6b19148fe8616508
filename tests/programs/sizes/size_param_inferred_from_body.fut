-- An unannotated parameter that the body makes a size of the result only through a size
-- variable (map2 equates the size of xs, still unknown, with n): the function's type is
-- (n: i64) -> [n]i32 -> [n]i32, so a call's result has the argument's size, and zs and
-- ys have the same size in main's map2.
-- ==
-- input { 3i64 [1, 2, 3] }
-- output { [2, 4, 6] [1i64, 2i64, 3i64] }

def add_zeros n xs = map2 (+) xs (replicate n 0i32)
def ones n = map (+ 1) (iota n)

entry main (k: i64) (ys: [k]i32) =
  let zs = add_zeros k ys
  in (map2 (+) zs ys, map2 (\a _ -> a) (ones k) ys)
