-- A return size given by a value parameter: [n] in the result type refers to n: i64.
-- ==
-- input { 3i64 }  output { [0i64, 2i64, 4i64] [1, 1, 1] }
-- input { 0i64 }  output { empty([0]i64) empty([0]i32) }
def evens (n: i64) : [n]i64 = map (* 2) (iota n)

def ones (n: i64) : [n]i32 = replicate n 1

entry main (n: i64) : ([]i64, []i32) = (evens n, ones n)
