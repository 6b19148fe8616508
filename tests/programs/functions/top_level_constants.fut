-- Top-level constants computed by loops, used at several places: in branches, in the
-- lambdas of maps, in loops (one whose array changes size, which the lowering lowers
-- again), in sizes, and by other constants. Compiled code computes a constant once per
-- body where it is used (Note [Top-level constants] in lower_to_core.cpp); the values
-- are those of computing it at every use.
-- ==
-- entry: branches
-- input { true 3i64 } output { 30i64 }
-- input { false 3i64 } output { 432i64 }
-- input { true 8i64 }
-- error: Index \[8\] out of bounds for array of shape \[8\]

-- ==
-- entry: in_maps
-- input { [0i64, 5i64, 9i64] } output { [280i64, 305i64, 281i64] [[140i64, 140i64], [140i64, 140i64], [140i64, 140i64]] }
-- input { empty([0]i64) } output { empty([0]i64) empty([0][2]i64) }

-- ==
-- entry: in_loops
-- input { 3i64 } output { 5i64 [0i64, 140i64, 141i64, 145i64, 154i64] }

-- ==
-- entry: sized
-- input { [1i64, 2i64, 3i64] } output { 146i64 }
-- input { [1i64, 2i64] } error: invalid sizes

def squares : [8]i64 = loop acc = replicate 8 0 for i < 8 do acc with [i] = i * i
def total : i64 = loop s = 0 for x in squares do s + x
def k : i64 = loop n = 0 for x in squares do if x > 0 && x < 10 then n + 1 else n
def twice : i64 = total + total

entry branches (b: bool) (i: i64) : i64 =
  let x = if b then squares[i] + squares[i] else total + twice
  in x + squares[i] + k + twice - total - total

entry in_maps (xs: []i64) : ([]i64, [][2]i64) =
  let ys = map (\x -> squares[x % 8] + total) xs
  in (map (+ total) ys, map (\_ -> [total, total]) ys)

entry in_loops (n: i64) : (i64, []i64) =
  let (xs, c) =
    loop (xs, c) = ([0i64], 0) while length xs < n + 2 do
      (xs ++ [total + c], c + squares[length xs])
  in (length xs, xs)

entry sized (xs: [k]i64) : i64 = total + reduce (+) 0 xs
