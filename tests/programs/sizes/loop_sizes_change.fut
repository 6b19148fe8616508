-- Loops whose arrays change size from one iteration to the next (a size parameter
-- per changing dimension: Note [Loops whose arrays change size] in
-- compiler/lower_to_core.cpp), on the host and inside a map.
-- ==
-- entry: doubling
-- input { 3 } output { [1i32, 2i32, 1i32, 2i32, 1i32, 2i32, 1i32, 2i32, 1i32, 2i32, 1i32, 2i32, 1i32, 2i32, 1i32, 2i32] }
-- input { 0 } output { [1i32, 2i32] }
-- ==
-- entry: halving
-- input { [5i64, 3i64, 8i64, 1i64, 9i64, 2i64] }
-- output { 2i64 [8i64, 9i64] }
-- ==
-- entry: grow_rows
-- input { [1i64, 3i64] 2i64 }
-- output { [0i64, 9i64] }
-- input { [1i64, -1i64] 2i64 }
-- error: Range 0..1..<-1 is invalid
-- ==
-- entry: coerced
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] }
-- output { [[[2i32, 3i32, 1i32], [5i32, 6i32, 4i32]], [[2i32, 3i32, 1i32], [5i32, 6i32, 4i32]]] }
-- ==
-- entry: drops
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 2 }
-- output { [3i32, 6i32] }
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] 4 }
-- error: Index \[1:\] out of bounds for array of shape \[0\]

-- The array doubles each iteration.
entry doubling (n: i32) : []i32 =
  loop xs = [1i32, 2i32] for _i < n do xs ++ xs

-- A while loop that keeps the elements above the mean, and counts its iterations.
entry halving (xs: []i64) : (i64, []i64) =
  loop (k, ys) = (0i64, xs) while length ys > 2 do
    let mean = i64.sum ys / length ys
    in (k + 1, filter (> mean) ys)

-- Inside a map: the loop's array grows by the element's value each iteration (the map
-- runs on the host: its arrays are sized inside it).
entry grow_rows (ns: []i64) (m: i64) : []i64 =
  map (\n -> let ys = loop ys = iota n for _i < m do ys ++ iota n
             in i64.sum ys) ns

-- The result of a size-changing loop coerced to a size known outside the map: the map's
-- rows have that size. Each row is rotated by one.
entry coerced [n] [m] (xss: [n][m]i32) : [2][n][m]i32 =
  let rot (A: [n][m]i32) : [n][m]i32 =
    map (\r -> (loop r for _i < 1 do r[1:] ++ [r[0]]) :> [m]i32) A
  in map rot [xss, xss]

-- Inside a kernel: the loop's array shrinks by a slice each iteration (no array made,
-- so the map stays one kernel).
entry drops (xss: [][]i32) (k: i32) : []i32 =
  map (\r -> let s = loop s = r for _i < k do s[1:] in i32.sum s) xss
