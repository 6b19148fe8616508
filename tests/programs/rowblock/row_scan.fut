-- Prefix sums of the rows of a matrix (a scan of a map fused into it, main), and a
-- scan whose operator does not commute on pairs (a linear recurrence; 64-bit values
-- through the warp shuffles): one block per row from 64 elements (tiles of the block's
-- size; rows of one, two and several tiles), one thread per row below. A failing
-- index inside the scan's fused map, in one row (the first, one in the middle, the
-- last): the interpreter's message and location.
-- ==
-- entry: main
-- input { 5i64 300i64 -1i64 0i64 } output { [-23i64, 21i64, 21i64, 32i64, 32i64] }
-- input { 3i64 1000i64 -1i64 0i64 } output { [-63i64, 19i64, 13i64] }
-- input { 4i64 256i64 -1i64 0i64 } output { [-23i64, 21i64, 21i64, 32i64] }
-- input { 5i64 10i64 -1i64 0i64 } output { [-63i64, 19i64, 13i64, -15i64, 56i64] }
-- input { 0i64 100i64 -1i64 0i64 } output { empty([0]i64) }
-- input { 5i64 300i64 0i64 7i64 }
-- error: Index \[307\] out of bounds for array of shape \[300\][\s\S]*row_scan\.fut:36:50-67
-- input { 5i64 300i64 2i64 299i64 }
-- error: Index \[599\] out of bounds for array of shape \[300\][\s\S]*row_scan\.fut:36:50-67
-- input { 5i64 300i64 4i64 0i64 }
-- error: Index \[300\] out of bounds for array of shape \[300\][\s\S]*row_scan\.fut:36:50-67
-- input { 5i64 10i64 4i64 3i64 }
-- error: Index \[13\] out of bounds for array of shape \[10\][\s\S]*row_scan\.fut:36:50-67
-- ==
-- entry: recur
-- input { 5i64 300i64 -1i64 0i64 } output { [9401393i64, 10787789i64, 12005788i64, 8603403i64, 5853379i64] }
-- input { 3i64 1000i64 -1i64 0i64 } output { [16151287i64, 9230945i64, 7670595i64] }
-- input { 5i64 10i64 -1i64 0i64 } output { [16304377i64, 195514i64, 16923830i64, 233474i64, 255960i64] }
-- input { 5i64 300i64 2i64 100i64 }
-- error: Index \[400\] out of bounds for array of shape \[300\][\s\S]*row_scan\.fut:43:80-97
def at (i: i64) (bad: i64) (k: i64) (m: i64) (j: i64) : i64 =
  if i == bad && j == k then j + m else j

def data (n: i64) (m: i64) : [n][m]i64 =
  unflatten (map (\q -> (q / m * 7 + q % m * 3) % 11 - 5) (iota (n * m)))

entry main (n: i64) (m: i64) (bad: i64) (k: i64) : []i64 =
  let ps = map2 (\i xs -> scan (+) 0 (map (\j -> xs[at i bad k m j]) (iota m))) (iota n) (data n m)
  in map (\i -> ps[i, 0] + ps[i, m - 1] * 3 + ps[i, m / 2] * 7) (iota n)

def compose (a1: i64, b1: i64) (a2: i64, b2: i64) : (i64, i64) =
  ((a1 * a2) % 1000003, (b1 * a2 + b2) % 1000003)

entry recur (n: i64) (m: i64) (bad: i64) (k: i64) : []i64 =
  let (as, bs) = unzip (map2 (\i xs -> unzip (scan compose (1, 0) (map (\j -> (xs[at i bad k m j] % 3 + 2, xs[j])) (iota m))))
                             (iota n) (data n m))
  in map (\i -> as[i, m - 1] + bs[i, m - 1] * 5 + bs[i, m / 2] * 11 + bs[i, 0]) (iota n)
