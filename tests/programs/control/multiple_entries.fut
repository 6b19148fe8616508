-- Several entry points in one program, each with its own test block.
-- ==
-- entry: add
-- input { 2 3 } output { 5 }
-- input { -2 2 } output { 0 }

-- ==
-- entry: scale
-- input { [1, 2] 3 } output { [3, 6] }
-- input { empty([0]i32) 3 } output { empty([0]i32) }

-- ==
-- entry: swap
-- input { 1 true } output { true 1 }

def helper (x: i32) (y: i32) : i32 = x + y
entry add (x: i32) (y: i32) : i32 = helper x y
entry scale (xs: []i32) (k: i32) : []i32 = map (* k) xs
entry swap (x: i32) (b: bool) : (bool, i32) = (b, x)
