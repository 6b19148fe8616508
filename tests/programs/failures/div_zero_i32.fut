-- Division and remainder by zero fail for each of / % // %% on i32.
-- ==
-- entry: divide
-- input { 7 2 } output { 3 }
-- input { 7 0 } error: division by zero[\s\S]*div_zero_i32\.fut:21:

-- ==
-- entry: modulo
-- input { -7 2 } output { 1 }
-- input { -7 0 } error: division by zero[\s\S]*div_zero_i32\.fut:22:

-- ==
-- entry: quotient
-- input { -7 2 } output { -3 }
-- input { 0 0 } error: division by zero[\s\S]*div_zero_i32\.fut:23:

-- ==
-- entry: remainder
-- input { -7 2 } output { -1 }
-- input { 1 0 } error: division by zero[\s\S]*div_zero_i32\.fut:24:
entry divide (a: i32) (b: i32) : i32 = a / b
entry modulo (a: i32) (b: i32) : i32 = a % b
entry quotient (a: i32) (b: i32) : i32 = a // b
entry remainder (a: i32) (b: i32) : i32 = a %% b
