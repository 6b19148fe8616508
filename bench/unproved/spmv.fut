-- CSR sparse matrix times vector: 2^21 rows of 0 to 31 nonzeros each (uniform), random
-- columns, f32. Row r holds the nonzeros row_ptr[r] .. row_end[r] - 1 of cols and vals.
-- Measures a sequential loop per thread of varying length whose indices come from data:
-- `vals[s + j]` and `cols[s + j]` are affine in the loop counter, but s and e are read
-- from row_ptr and row_end, so no analysis of the program can prove them in bounds (one
-- test of s and e before the loop could decide them all); `x[cols[s + j]]` is a gather
-- through an index read from memory and must be checked on every iteration.
-- Inputs from bench/gen_data.py (bench/data/spmv.in); part of the group of programs
-- whose checks cannot be proved (bench/README.md, "Checks that cannot be proved").
--
-- The cases: two results (an empty row; no rows), then a column out of bounds in the
-- first row (its first nonzero), a middle row and the last row (its last nonzero); a row
-- that runs past the end of cols and vals (the last row, in its last iteration), and one
-- that starts before them (the first row, in its first iteration).
-- ==
-- nobench input { [0i64, 2i64, 2i64] [2i64, 2i64, 5i64]
--                 [1i64, 0i64, 2i64, 1i64, 0i64] [1f32, 2f32, 3f32, 4f32, 5f32]
--                 [10f32, 20f32, 30f32] }
--         output { [40f32, 0f32, 220f32] }
-- nobench input { empty([0]i64) empty([0]i64) empty([0]i64) empty([0]f32) [1f32] }
--         output { empty([0]f32) }
-- nobench input { [0i64, 2i64, 3i64] [2i64, 3i64, 5i64] [3i64, 0i64, 2i64, 1i64, 0i64]
--                 [1f32, 2f32, 3f32, 4f32, 5f32] [10f32, 20f32, 30f32] }
--         error: Index \[3\] out of bounds for array of shape \[3\][\s\S]*spmv\.fut:43:66-79
-- nobench input { [0i64, 2i64, 3i64] [2i64, 3i64, 5i64] [1i64, 0i64, -1i64, 1i64, 0i64]
--                 [1f32, 2f32, 3f32, 4f32, 5f32] [10f32, 20f32, 30f32] }
--         error: Index \[-1\] out of bounds for array of shape \[3\][\s\S]*spmv\.fut:43:66-79
-- nobench input { [0i64, 2i64, 3i64] [2i64, 3i64, 5i64] [1i64, 0i64, 2i64, 1i64, 7i64]
--                 [1f32, 2f32, 3f32, 4f32, 5f32] [10f32, 20f32, 30f32] }
--         error: Index \[7\] out of bounds for array of shape \[3\][\s\S]*spmv\.fut:43:66-79
-- nobench input { [0i64, 2i64, 3i64] [2i64, 3i64, 6i64] [1i64, 0i64, 2i64, 1i64, 0i64]
--                 [1f32, 2f32, 3f32, 4f32, 5f32] [10f32, 20f32, 30f32] }
--         error: Index \[5\] out of bounds for array of shape \[5\][\s\S]*spmv\.fut:43:52-62
-- nobench input { [-1i64, 2i64, 3i64] [2i64, 3i64, 5i64] [1i64, 0i64, 2i64, 1i64, 0i64]
--                 [1f32, 2f32, 3f32, 4f32, 5f32] [10f32, 20f32, 30f32] }
--         error: Index \[-1\] out of bounds for array of shape \[5\][\s\S]*spmv\.fut:43:52-62
-- "2^21 rows, 0-31 nonzeros a row" no_interp no_cpu input @ ../data/spmv.in output @ ../data/spmv.out
entry main [n][nnz][m] (row_ptr: [n]i64) (row_end: [n]i64) (cols: [nnz]i64) (vals: [nnz]f32)
                       (x: [m]f32) : [n]f32 =
  map (\r ->
         let s = row_ptr[r]
         let e = row_end[r]
         in loop acc = 0f32 for j < e - s do acc + vals[s + j] * x[cols[s + j]])
      (iota n)
