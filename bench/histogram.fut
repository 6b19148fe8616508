-- A histogram with reduce_by_index: 2^24 indices into 4096 bins, counting. About 1% of
-- the indices are out of range (-1 or 4096) and, as in Futhark, are ignored, not
-- failures.
-- ==
-- nobench input { 4i64 [0i64, 1i64, 1i64, 3i64, 4i64, -1i64, 3i64, 3i64] }
--         output { [1, 2, 0, 3] }
-- nobench input { 2i64 empty([0]i64) } output { [0, 0] }
-- "2^24 into 4096 bins" no_interp no_cpu input @ data/histogram.in output @ data/histogram.out
entry main (bins: i64) (is: []i64) : []i32 =
  reduce_by_index (replicate bins 0i32) (+) 0i32 is (map (\_ -> 1i32) is)
