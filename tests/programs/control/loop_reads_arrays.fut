-- Sequential loops of host code that read arrays, which compiled code runs in one kernel
-- of one thread (compiler/offload_sequential_loops.cpp, Note [Sequential loops in one
-- thread]): results of every size (i8, u16, i64, f64, bool), for and while loops, ifs and
-- nested loops in the body, rows read through a view, scalars computed on the host
-- before the loop, a loop in the body of a host loop that stays on the host (it maps),
-- and a loop in a branch. Failures (bounds at a data index, the affine index that a
-- thread checks once before the loop, division by zero, assert) in the first, a middle
-- and the last iteration, with the interpreter's message, values and location.
-- ==
-- entry: stats
-- input { [3i8, -7i8, 5i8, 0i8] [10u16, 200u16, 7u16, 65535u16] [0i64, 3i64, 1i64, 2i64] }
-- output { -7i8 65535u16 7i64 5f64 true }
-- input { empty([0]i8) empty([0]u16) empty([0]i64) }
-- output { 127i8 0u16 0i64 0f64 false }
-- input { [3i8, -7i8, 5i8, 0i8] [10u16, 200u16, 7u16, 65535u16] [4i64, 3i64, 1i64, 2i64] }
-- error: Index \[4\] out of bounds for array of shape \[4\][\s\S]*loop_reads_arrays\.fut:91:20-24
-- input { [3i8, -7i8, 5i8, 0i8] [10u16, 200u16, 7u16, 65535u16] [0i64, 3i64, -1i64, 2i64] }
-- error: Index \[-1\] out of bounds for array of shape \[4\][\s\S]*loop_reads_arrays\.fut:91:20-24
-- input { [3i8, -7i8, 5i8, 0i8] [10u16, 200u16, 7u16, 65535u16] [0i64, 3i64, 1i64, 9i64] }
-- error: Index \[9\] out of bounds for array of shape \[4\][\s\S]*loop_reads_arrays\.fut:91:20-24
-- input { [3i8, -7i8, 5i8] [10u16, 200u16, 7u16, 65535u16] [0i64, 1i64, 2i64, 0i64] }
-- error: Index \[3\] out of bounds for array of shape \[3\][\s\S]*loop_reads_arrays\.fut:91:59-63

-- ==
-- entry: window
-- input { [1, 2, 3, 4, 5, 6] 1i64 3i64 } output { 2i64 9 }
-- input { [1, 2, 3, 4, 5, 6] 0i64 6i64 } output { 3i64 21 }
-- input { [1, 2, 3, 4, 5, 6] -1i64 3i64 }
-- error: Index \[-1\] out of bounds for array of shape \[6\][\s\S]*loop_reads_arrays\.fut:99:13-22
-- input { [1, 2, 3, 4, 5, 6] 3i64 5i64 }
-- error: Index \[6\] out of bounds for array of shape \[6\][\s\S]*loop_reads_arrays\.fut:99:13-22
-- input { [1, 2, 3, 4, 5, 6] 4i64 3i64 }
-- error: Index \[6\] out of bounds for array of shape \[6\][\s\S]*loop_reads_arrays\.fut:99:13-22

-- ==
-- entry: divide
-- input { [12, 7, -9] [3, 2, 4] } output { 4 }
-- input { [12, 7, -9] [0, 2, 4] }
-- error: division by zero[\s\S]*loop_reads_arrays\.fut:105:35-47
-- input { [12, 7, -9] [3, 0, 4] }
-- error: division by zero[\s\S]*loop_reads_arrays\.fut:105:35-47
-- input { [12, 7, -9] [3, 2, 0] }
-- error: division by zero[\s\S]*loop_reads_arrays\.fut:105:35-47

-- ==
-- entry: divide_then_assert
-- input { [12, 7, -9] [3, 2, 4] } output { 4 }
-- input { [12, 7] [3, 2] } error: Assertion is false: n > 2[\s\S]*loop_reads_arrays\.fut:111:6-21
-- input { [12, 7] [3, 0] } error: division by zero[\s\S]*loop_reads_arrays\.fut:110:43-55

-- ==
-- entry: ascending
-- input { 0 [1, 2, 2, 5] } output { 10 }
-- input { 2 [1, 2, 2, 5] } error: Assertion is false: prev <= xs\[i\][\s\S]*loop_reads_arrays\.fut:116:14-40
-- input { 0 [1, 2, 1, 5] } error: Assertion is false: prev <= xs\[i\][\s\S]*loop_reads_arrays\.fut:116:14-40
-- input { 0 [1, 2, 3, 0] } error: Assertion is false: prev <= xs\[i\][\s\S]*loop_reads_arrays\.fut:116:14-40

-- ==
-- entry: search
-- input { [4, 8, 15, 16, 23, 42] 15 } output { 2i64 }
-- input { [4, 8, 15, 16, 23, 42] 4 } output { 0i64 }
-- input { [4, 8, 15, 16, 23, 42] 42 } output { 5i64 }
-- input { [4, 8, 15, 16, 23, 42] 7 }
-- error: Index \[6\] out of bounds for array of shape \[6\][\s\S]*loop_reads_arrays\.fut:122:23-27

-- ==
-- entry: rows
-- input { [[1, 2, 3], [4, 5, 6]] [2i64, 0i64] } output { 10 }
-- input { [[1, 2, 3], [4, 5, 6]] [3i64, 0i64] }
-- error: Index \[3\] out of bounds for array of shape \[3\][\s\S]*loop_reads_arrays\.fut:129:35-48
-- input { [[1, 2, 3], [4, 5, 6]] [2i64, 7i64] }
-- error: Index \[7\] out of bounds for array of shape \[3\][\s\S]*loop_reads_arrays\.fut:129:35-48

-- ==
-- entry: rounds
-- input { [1, 2, 3] } output { 36 }
-- input { [1, -2, 3] } error: Assertion is false: ys\[i\] > 0[\s\S]*loop_reads_arrays\.fut:136:36-59

-- ==
-- entry: branch
-- input { true [1f32, 2f32, 4f32] } output { 7f32 }
-- input { false [1f32, 2f32, 4f32] } output { 0f32 }
-- input { true empty([0]f32) } output { 0f32 }

-- The smallest i8, the largest u16, the sum of the indices read, a mean and whether any
-- index read is odd: five results of five sizes, the reads at data indices.
entry stats [n] (bs: []i8) (hs: [n]u16) (is: [n]i64) : (i8, u16, i64, f64, bool) =
  let (b, h, s, odd) =
    loop (b, h, s, odd) = (i8.highest, 0u16, 0i64, false) for i < n do
      let j = is[i]
      in (i8.min b bs[j], u16.max h hs[i], s + j + i64.i8 bs[i], odd || j % 2 == 1)
  in (b, h, s, if n == 0 then 0 else f64.i64 (s + 13) / f64.i64 n, odd)

-- xs[lo + i] for i < k: an affine index (checked once before the loop, the first and
-- the last iteration's), and a count computed on the host before the loop.
entry window (xs: []i32) (lo: i64) (k: i64) : (i64, i32) =
  let step = lo + 1
  let (c, s) = loop (c, s) = (0i64, 0i32) for i < k do
    let x = xs[lo + i]
    in (if x % 2 == 0 then c + step - lo else c, s + x)
  in (c, s)

-- Sums of xs[i] / ds[i] (division by a value read from memory).
entry divide [n] (xs: [n]i32) (ds: [n]i32) : i32 =
  loop acc = 0 for i < n do acc + xs[i] / ds[i]

-- The same, then an assert on the host that does not wait for the loop's result: when
-- both fail, the loop's failure (the first) is reported.
entry divide_then_assert [n] (xs: [n]i32) (ds: [n]i32) : i32 =
  let s = loop acc = 0 for i < n do acc + xs[i] / ds[i]
  in assert (n > 2) s

-- Asserts that xs ascends from lo, and sums it.
entry ascending [n] (lo: i32) (xs: [n]i32) : i32 =
  let (acc, _) = loop (acc, prev) = (0, lo) for i < n do
    let ok = assert (prev <= xs[i]) true
    in (if ok then acc + xs[i] else acc, xs[i])
  in acc

-- The index of the first element equal to x: a while loop whose condition reads.
entry search (xs: []i32) (x: i32) : i64 =
  loop i = 0i64 while xs[i] != x do i + 1

-- Nested loops reading rows of a matrix through a view: row r up to column ks[r].
entry rows [n] [m] (xss: [n][m]i32) (ks: [n]i64) : i32 =
  loop acc = 0 for r < n do
    let row = xss[r]
    in loop acc for j < m do
         if j <= ks[r] then acc + row[ks[r] - j] else acc

-- A host loop whose body maps (it stays on the host), with a loop that reads the map's
-- result in its body (a kernel of one thread per round).
entry rounds [n] (xs: [n]i32) : i32 =
  loop acc = 0 for r < 3 do
    let ys = map (\x -> x * (i32.i64 r + 1)) xs
    in loop acc for i < n do acc + assert (ys[i] > 0) ys[i]

-- A loop in a branch of host code.
entry branch (on: bool) (xs: []f32) : f32 =
  if on then loop s = 0f32 for i < length xs do s + xs[i] else 0f32
