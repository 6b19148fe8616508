-- Elementwise integer division over 2^26 pairs: one division-by-zero check per element.
-- Futhark's `/` on integers rounds towards negative infinity.
-- ==
-- nobench input { [-7, 7, -7, 7, 8, 0, 2147483647] [2, 2, -2, -2, 3, 5, -1] }
--         output { [-4, 3, 3, -4, 2, 0, -2147483647] }
-- nobench input { [1, 2] [1, 0] } error: division by zero
-- "2^26" no_interp no_cpu input @ data/intdiv.in output @ data/intdiv.out
entry main (a: []i32) (b: []i32) : []i32 = map2 (\x y -> x / y) a b
