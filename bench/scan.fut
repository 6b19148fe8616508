-- An inclusive prefix sum over 2^26 i32 (integers, so that every implementation must
-- give exactly the same result; the sum wraps around as i32 does).
-- ==
-- nobench input { [1, 2, 3, -4] } output { [1, 3, 6, 2] }
-- nobench input { [2147483647, 1] } output { [2147483647, -2147483648] }
-- nobench input { empty([0]i32) } output { empty([0]i32) }
-- "2^26" no_interp no_cpu input @ data/scan.in output @ data/scan.out
entry main (xs: []i32) : []i32 = scan (+) 0i32 xs
