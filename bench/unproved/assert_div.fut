-- Bucketing by data: for every element, x's bucket of width w (x / w), its offset in the
-- bucket (x % w) and its offset modulo a second width v (x % v), with asserts that x is
-- not negative, that w is positive and that the bucket is below nbuckets; 2^24 elements
-- of i32. Measures a map whose checks are all on values read from memory: three asserts
-- and three integer divisions by data (the one by v can fail with division by zero;
-- those by w follow the assert w > 0, which the compiler may or may not use).
-- Inputs from bench/gen_data.py (bench/data/assert_div.in); part of the group of
-- programs whose checks cannot be proved (bench/README.md, "Checks that cannot be
-- proved").
--
-- The cases: results, then each assert and the division by v failing in one element:
-- x >= 0 in the first, w > 0 and the division in middle ones, b < nbuckets in the last.
-- ==
-- nobench input { [7, 0, 100, 65] [2, 5, 30, 65] [3, 1, 7, 64] 8 }
--         output { [14, 0, 24, 5] }
-- nobench input { empty([0]i32) empty([0]i32) empty([0]i32) 8 } output { empty([0]i32) }
-- nobench input { [-7, 0, 100, 65] [2, 5, 30, 65] [3, 1, 7, 64] 8 }
--         error: Assertion is false: x >= 0[\s\S]*assert_div\.fut:28:19-35
-- nobench input { [7, 0, 100, 65] [2, 0, 30, 65] [3, 1, 7, 64] 8 }
--         error: Assertion is false: w > 0[\s\S]*assert_div\.fut:29:19-34
-- nobench input { [7, 0, 100, 65] [2, 5, 30, 65] [3, 1, 0, 64] 8 }
--         error: division by zero[\s\S]*assert_div\.fut:32:19-23
-- nobench input { [7, 0, 100, 650] [2, 5, 30, 65] [3, 1, 7, 64] 8 }
--         error: Assertion is false: b < nbuckets[\s\S]*assert_div\.fut:33:19-41
-- "2^24" no_interp no_cpu input @ ../data/assert_div.in output @ ../data/assert_div.out
entry main [n] (xs: [n]i32) (ws: [n]i32) (vs: [n]i32) (nbuckets: i32) : [n]i32 =
  map3 (\x w v ->
          let x = assert (x >= 0) x
          let w = assert (w > 0) w
          let b = x / w
          let r = x % w
          let s = x % v
          let b = assert (b < nbuckets) b
          in b * 4 + r + s)
       xs ws vs
