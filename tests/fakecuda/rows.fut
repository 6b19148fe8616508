-- A loop over rows of its own (Note [Loops over rows, fewer threads] in
-- codegen/extract_kernels.cpp) for the fake driver (no expected output: its kernels do
-- not run): 20 elements of cols and vals a row, so the kernel is launched with the
-- shared memory that bounds its blocks an SM.
-- ==
-- random input { [1000]i64 [1000]i64 [20000]i64 [20000]f32 [100]f32 }
entry main [n][nnz][m] (rp: [n]i64) (re: [n]i64) (cols: [nnz]i64) (vals: [nnz]f32) (x: [m]f32) : [n]f32 =
  map (\r -> let s = rp[r]
             let e = re[r]
             in loop acc = 0f32 for j < e - s do acc + vals[s + j] * x[cols[s + j]]) (iota n)
