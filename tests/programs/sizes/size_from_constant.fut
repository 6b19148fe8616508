-- Sizes given by top-level constants: in a function's return type, in an entry
-- point's parameter (checked against the argument) and computed from another constant.
-- ==
-- entry: zeros
-- input { } output { [0i32, 0i32, 0i32] }

-- ==
-- entry: scaled
-- input { [1, 2, 3] } output { [2, 4, 6] }
-- input { [1, 2] } error: invalid sizes

-- ==
-- entry: twice_k
-- input { } output { 6i64 }

def k : i64 = 3
def k2 : i64 = k * 2

def zeros_of () : [k]i32 = replicate k 0

entry zeros : []i32 = zeros_of ()

entry scaled (xs: [k]i32) : [k]i32 = map (* 2) xs

entry twice_k : i64 = length (iota k2 :> [k2]i64)
