-- i8 and i16 values keep their width through arithmetic, comparisons and arrays.
-- ==
-- input { [100i8, 27i8, 1i8] [30000i16, 2768i16] } output { -128i8 -32768i16 [-56i8, 54i8, 2i8] true }
-- input { [1i8] [1i16] } output { 1i8 1i16 [2i8] false }
entry main (xs: []i8) (ys: []i16) : (i8, i16, []i8, bool) =
  (reduce (+) 0 xs, reduce (+) 0 ys, map (* 2) xs, reduce (+) 0 xs < 0)
