-- Programs the consumption checker accepts, as Futhark does (compiler/types/
-- check_consumption.cpp); each was once rejected.

-- An inner loop consumes the parameter of the outer for-in loop (the sorts library's
-- insertion sort, pbbs/comparisonSort).
-- ==
-- entry: insertion_sort
-- input { [3, 1, 2, 5, 4] } output { [1, 2, 3, 4, 5] }
-- input { empty([0]i32) } output { empty([0]i32) }
def sort_in_place [n] (s: *[n]i32) : *[n]i32 =
  if n <= 1
  then s
  else loop s for i in 0...(n - 2) do
         let (s, _) =
           loop (s, j) = (s, i)
           while j >= 0 && s[j] > s[j + 1] do
             let tmp = s[j]
             let s = s with [j] = s[j + 1]
             let s = s with [j + 1] = tmp
             in (s, j - 1)
         in s

entry insertion_sort (xs: []i32) : []i32 = sort_in_place (copy xs)

-- Only the loop parameters the body consumes consume their initial value: xs, a
-- non-unique parameter, is only read (pbbs/maximalMatching).
-- ==
-- entry: observed_part
-- input { [1, 2, 3] [0, 0, 0] } output { [1, 2, 3] [1, 2, 3] }
entry observed_part (xs: []i32) (ys: *[]i32) : ([]i32, []i32) =
  loop (xs, ys) for i < 3 do (xs, ys with [i] = xs[i])

-- A function's unique results are new arrays: passing one back to it, consumed,
-- alongside the argument it read, aliases nothing (rodinia/bfs_heuristic).
-- ==
-- entry: unique_results
-- input { [5, 6] } output { [6, 6] [5, 6] }
def step (xs: *[]i32) (ys: []i32) : (*[]i32, *[]i32) = (xs with [0] = ys[1], copy ys)

entry unique_results (ys: []i32) : ([]i32, []i32) =
  let (a, _) = step (copy ys) ys
  in step a ys

-- A function without a return type has a non-unique one for these checks, whatever
-- its body's type: slices of unique results may be returned (misc/knn-by-kdtree).
-- ==
-- entry: unannotated_result
-- input { [1f32, 2f32] } output { [2f32] [1, 2] }
def build [m] (input: [m]f32) : (*[m]f32, *[m]i32) = (map (+ 1) input, map i32.f32 input)

entry unannotated_result [m] (input: [m]f32) = let (a, b) = build input in (a[:1], b)

-- A function without a return type whose result aliases no parameter returns a unique
-- array, which its caller may update.
-- ==
-- entry: inferred_unique
-- input { 3i64 } output { [7, 1, 2] }
def iota32 n = map i32.i64 (iota n)

entry inferred_unique (n: i64) : []i32 =
  let is = iota32 n
  in is with [0] = 7

-- A loop's consumed parameter may take another parameter's value, which is then
-- consumed too; a function may capture an array that is consumed after its last use.
-- ==
-- entry: swap_and_capture
-- input { [1, 2] [3, 4] } output { [2, 4] [1, 4] 3 }
entry swap_and_capture (xs: []i32) (ys: []i32) : ([]i32, []i32, i32) =
  let (a, b) = loop (a, b) = (copy xs, copy ys) for i < 2 do (b with [0] = i + 1, a)
  let f (i: i64) = a[i] + 1
  let k = f 0
  in (a with [1] = 4, b, k)

-- The prelude's tabulate_2d, manifest and indices give unique arrays, as Futhark's do,
-- even where the function given to tabulate_2d captures a non-unique parameter.
-- ==
-- entry: prelude_unique
-- input { [1, 2] 2i64 } output { [[1, 2], [2, 0]] }
entry prelude_unique (xs: []i32) (n: i64) : [][]i32 =
  let a = tabulate_2d n n (\i j -> xs[i] + i32.i64 j)
  let b = manifest xs
  let is = indices xs
  in (a with [0, 0] = b[0] + i32.i64 is[0]) with [1, 1] = 0
