-- bench/reduce.fut's entry with a case for the fake driver (no expected output: its
-- kernels do not run).
-- ==
-- random input { [100000]f32 }
entry main (xs: []f32) : f32 = reduce (+) 0f32 xs
