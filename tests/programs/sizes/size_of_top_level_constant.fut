-- A size given by a top-level constant, in an entry point's parameter and in a local
-- function's (parboil's lbm and tpacf, the ocean simulation's tridiagonal solver), and
-- a size expression that divides by a constant (jgf's crypt: [n / 8 * 8]).
-- ==
-- input { [1f32, 2f32, 3f32, 4f32] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }  output { 10f32 [1, 2, 3, 4, 5, 6, 7, 8] }
-- input { [1f32, 2f32, 3f32] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }  error: entry point arguments have invalid sizes

def width : i64 = 2 * 2

def total (xs: [width]f32) = reduce (+) 0 xs

def whole_blocks [n] (xs: [n]i32) : [n / 8 * 8]i32 = take (n / 8 * 8) xs

entry main (xs: [width]f32) (ys: []i32) = (total xs, whole_blocks ys)
