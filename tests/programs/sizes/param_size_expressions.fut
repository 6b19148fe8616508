-- Size expressions in parameter types: of earlier parameters (which are i64 then, also
-- without an annotation), checked against the arguments (statically the same size
-- expression: [5] is coerced to [2 + 3]).
-- ==
-- input { 2i64 3i64 [1, 2, 3, 4, 5, 6] }  output { [[1, 2, 3], [4, 5, 6]] 5i64 }
-- input { 2i64 2i64 [1, 2, 3] }  error: entry point arguments have invalid sizes

def sum_of_sizes n m (_: [n + m]i64) = n + m

entry main (n: i64) (m: i64) (xs: [n * m]i32) = (unflatten n m xs, sum_of_sizes 2 3 (iota 5 :> [2 + 3]i64))
