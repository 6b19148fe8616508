-- Entry points for the golden-file tests of `kerb run --save-golden/--compare-golden`
-- (cli_test.sh): float, integer and bool results, a matrix, a NaN, a failing check.
entry scale (xs: []f32) (k: f32) : ([]f32, i64, bool) = (map (\x -> x * k) xs, length xs, k > 0)

entry outer (xs: []f64) : [][]f64 = map (\x -> map (\y -> x * y) xs) xs

entry ratio (x: f32) (y: f32) : f32 = x / y

entry pick (xs: []i32) (i: i64) : i32 = xs[i]
