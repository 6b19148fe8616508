-- Binary search per query: for each of 2^22 queries, the first of the first m keys that
-- is not below it (numpy's searchsorted, side 'left'), in 2^24 sorted i32 keys (m = 2^24
-- in the large case). Measures a while loop per thread whose probe index comes from
-- data: mid depends on the keys read in earlier iterations and on m, an argument, so no
-- analysis can prove keys[mid] in bounds (a bad m makes it fail).
-- Inputs from bench/gen_data.py (bench/data/bsearch.in); part of the group of programs
-- whose checks cannot be proved (bench/README.md, "Checks that cannot be proved").
--
-- The cases: results (m = n, m < n, no keys), then m beyond the keys: every query fails
-- in its first iteration (its first probe is keys[9]); only a middle query fails, in its
-- second of four iterations; only the last query fails, in its last iteration.
-- ==
-- nobench input { [1, 3, 3, 5, 8, 13, 21, 34] 8i64 [0, 1, 2, 3, 4, 34, 35, 13, -5] }
--         output { [0i64, 0i64, 1i64, 1i64, 3i64, 7i64, 8i64, 5i64, 0i64] }
-- nobench input { [1, 3, 3, 5, 8, 13, 21, 34] 4i64 [0, 3, 6, 100] }
--         output { [0i64, 1i64, 4i64, 4i64] }
-- nobench input { empty([0]i32) 0i64 [7, -7] } output { [0i64, 0i64] }
-- nobench input { [1, 3, 3, 5, 8, 13, 21, 34] 18i64 [40, 2, 4] }
--         error: Index \[9\] out of bounds for array of shape \[8\][\s\S]*bsearch\.fut:30:20-28
-- nobench input { [1, 3, 3, 5, 8, 13, 21, 34] 12i64 [4, 40, 5] }
--         error: Index \[9\] out of bounds for array of shape \[8\][\s\S]*bsearch\.fut:30:20-28
-- nobench input { [1, 3, 3, 5, 8, 13, 21, 34] 9i64 [4, 5, 40] }
--         error: Index \[8\] out of bounds for array of shape \[8\][\s\S]*bsearch\.fut:30:20-28
-- "2^22 queries into 2^24 keys" no_interp no_cpu input @ ../data/bsearch.in output @ ../data/bsearch.out
entry main [n][q] (keys: [n]i32) (m: i64) (queries: [q]i32) : [q]i64 =
  map (\x ->
         let (lo, _) =
           loop (lo, hi) = (0i64, m) while lo < hi do
             let mid = (lo + hi) / 2
             in if keys[mid] < x then (mid + 1, hi) else (lo, mid)
         in lo)
      queries
