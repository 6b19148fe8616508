-- reduce_by_index keeps the checks of the values it computes (a gather fused into the
-- parallel update kernel, and into the one-thread kernel of an operator that is not
-- commutative): every value is computed, also where its index is out of the
-- histogram's range and so ignored, as the interpreter computes the whole array.
-- ==
-- entry: atomic
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] [0i64, 7i64, 2i64, 2i64, 9i64] } output { [1, 0, 6, 0] }
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] [0i64, 12i64, 2i64] }
-- error: Index \[12\] out of bounds for array of shape \[10\]\.[\s\S]*hist_checks\.fut:19:
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] [0i64, -3i64] }
-- error: Index \[-3\] out of bounds for array of shape \[10\]

-- ==
-- entry: ordered
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] [0i64, 7i64, 2i64, 3i64, 9i64, 0i64, 2i64] } output { [1, 0, 3, 4] }
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] [0i64, 10i64] }
-- error: Index \[10\] out of bounds for array of shape \[10\]\.[\s\S]*hist_checks\.fut:22:
entry atomic (xs: []i32) (is: []i64) : []i32 =
  reduce_by_index (replicate 4 0) (+) 0 is (map (\i -> xs[i]) is)

entry ordered (xs: []i32) (is: []i64) : []i32 =
  reduce_by_index (replicate 4 0) (\_ b -> b) 0 is (map (\i -> xs[i]) is)
