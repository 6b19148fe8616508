-- The opt-in nan kind: run with `kerb test --checks=default,nan` (tests/cli/toggles_test.sh;
-- the test format has no per-file options, so this file is not in tests/programs). A
-- float operation whose result is NaN fails unless an operand already was NaN, in a
-- kernel (a map, a reduction) and in host code (scalar entries), for f32 and f64.
-- ==
-- entry: mul_add
-- input { [0f32, 2f32] [5f32, 3f32] } output { [1f32, 7f32] }
-- input { [0f32, f32.nan] [5f32, 3f32] } output { [1f32, f32.nan] }
-- input { [0f32, f32.inf] [5f32, 0f32] } error: ^NaN produced by \*\nat .*nan_checks\.fut:36:
-- input { [f32.inf, 1f32] [1f32, 1f32] } output { [f32.inf, 2f32] }

-- ==
-- entry: sub_div
-- input { [1f64, 4f64] [2f64, 2f64] } output { [1f64, 1f64] }
-- input { [f64.inf] [f64.inf] } error: ^NaN produced by -\nat .*nan_checks\.fut:38:
-- input { [2f64] [2f64] } error: ^NaN produced by /\nat .*nan_checks\.fut:38:

-- ==
-- entry: roots
-- input { [4f32, 9f32] } output { [2f32, 3f32] }
-- input { [4f32, -1f32] } error: ^NaN produced by f32\.sqrt\nat .*nan_checks\.fut:40:
-- input { [f32.nan] } output { [f32.nan] }

-- ==
-- entry: total
-- input { [1f32, 2f32, 3f32] } output { 6f32 }
-- input { [1f32, f32.inf, -f32.inf] } error: ^NaN produced by \+
-- input { [1f32, f32.nan] } output { f32.nan }

-- ==
-- entry: host
-- input { 2f64 3f64 } output { 8f64 }
-- input { -2f64 0.5f64 } error: ^NaN produced by \*\*\nat .*nan_checks\.fut:44:
-- input { -1f64 1f64 } error: ^NaN produced by f64\.log
entry mul_add (xs: []f32) (ys: []f32) : []f32 =
  map2 (\x y -> x * y + 1) xs ys
entry sub_div (xs: []f64) (ys: []f64) : []f64 =
  map2 (\x y -> (x - y) / (x - y)) xs ys
entry roots (xs: []f32) : []f32 =
  map (\x -> f32.sqrt x) xs
entry total (xs: []f32) : f32 =
  f32.sum xs
entry host (a: f64) (b: f64) : f64 =
  a ** b * f64.log (a * b) / f64.log (a * b)
