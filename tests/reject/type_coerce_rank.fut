-- A size coercion cannot change the rank.
-- ==
-- error: type_coerce_rank\.fut:4:29: error: a value of type \[n\]i32 cannot be coerced to type \[n\]\[1\]i32 \(only sizes may differ\)
def main [n] (xs: [n]i32) = xs :> [n][1]i32
