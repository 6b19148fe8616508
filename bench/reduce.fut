-- A sum over 2^26 f32: a block-level reduction with barriers (no checks at all: the
-- variants must run at the same speed).
-- ==
-- nobench input { [1f32, 2f32, 3.5f32] } output { 6.5f32 }
-- nobench input { empty([0]f32) } output { 0f32 }
-- "2^26" no_interp no_cpu input @ data/reduce.in output @ data/reduce.out
entry main (xs: []f32) : f32 = reduce (+) 0f32 xs
