-- Inclusive prefix sums of the rows of a 65536 x 1024 i32 matrix (issue 17): a scan per
-- row, one block per row in tiles of the block's size (Note [One block per row] in
-- codegen/row_block_kernels.cpp); no checks.
-- ==
-- nobench input { [[1, 2, 3], [-1, 0, 5]] } output { [[1, 3, 6], [-1, -1, 4]] }
-- nobench random input { [3][700]i32 } auto output
-- "65536 x 1024" no_interp no_cpu input @ data/row_scan.in output @ data/row_scan.out
entry main [n][m] (xss: [n][m]i32) : [n][m]i32 = map (\row -> scan (+) 0 row) xss
