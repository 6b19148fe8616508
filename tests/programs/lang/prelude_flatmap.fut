-- flatmap builds its result in a loop whose array grows, which the code generator does
-- not take yet.
-- ==
-- tags { no_cpu no_cuda }
-- input { [1i64, 0i64, 2i64] }
-- output { [1i64, 0i64, 2i64] [true, true, false] [0i64, 1i64, 1i64] [2, 3, 3] [1i64, 0i64, 2i64] }

entry main (ks: []i64) = flatmap (\k -> (replicate k (i32.i64 k + 1), k)) ks
