-- Prefix sums: inclusive scan, exclusive scan built by shifting, and a segmented
-- scan with (flag, value) tuples; the segmented operator is associative.
-- ==
-- input { [3, 1, 4, 1, 5, 9, 2] [true, false, false, true, false, true, false] }
-- output { [3, 4, 8, 9, 14, 23, 25] [0, 3, 4, 8, 9, 14, 23] [3, 4, 8, 1, 6, 9, 11] }
-- input { [7] [false] }  output { [7] [0] [7] }
-- input { empty([0]i32) empty([0]bool) }  output { empty([0]i32) empty([0]i32) empty([0]i32) }
def segop (f1: bool, v1: i32) (f2: bool, v2: i32) : (bool, i32) =
  (f1 || f2, if f2 then v2 else v1 + v2)

entry main [n] (xs: [n]i32) (flags: [n]bool) : ([n]i32, [n]i32, [n]i32) =
  let inc = scan (+) 0 xs
  let exc = map (\i -> if i == 0 then 0 else inc[i - 1]) (iota n)
  let (_, seg) = unzip (scan segop (false, 0) (zip flags xs))
  in (inc, exc, seg)
