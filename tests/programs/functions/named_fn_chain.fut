-- Named functions calling other named functions; a user definition named `sum` shadows the built-in.
-- ==
-- input { [3, 1, 2] }  output { 6 14 3 }
def sum (xs: []i32) : i32 = reduce (+) 0 xs

def sum_sq (xs: []i32) : i32 = sum (map (\x -> x * x) xs)

def stats (xs: []i32) : (i32, i32, i32) = (sum xs, sum_sq xs, i32.maximum xs)

entry main (xs: []i32) : (i32, i32, i32) = stats xs
