-- Every form of size mismatch (the `size` kind) fails with Futhark's wording and its
-- location: the arguments of map2/map3 and zip, a call whose parameters share a size,
-- concat of rows of different lengths, the rows of an array literal, an update of a
-- slice by a value of another shape, unflatten, and a map2 inside a map (checked in
-- the kernel's context). Size coercions (`:>`) are in tests/programs/sizes/.
-- ==
-- entry: m2
-- input { [1, 2, 3] [10, 20, 30] } output { [11, 22, 33] }
-- input { [1, 2] [1, 2, 3] }
-- error: ^Sizes of the arguments of map2 do not match: \[2\] and \[3\]\.\nat .*size_mismatch\.fut:57:

-- ==
-- entry: m3
-- input { [1, 2] [3, 4] [5, 6] } output { [16, 26] }
-- input { [1, 2] [1, 2] [1] }
-- error: ^Sizes of the arguments of map3 do not match: \[2\] and \[2\] and \[1\]\.\nat .*size_mismatch\.fut:58:

-- ==
-- entry: zp
-- input { [1, 2] [true, false] } output { [1, 2] [true, false] }
-- input { [1, 2] [true] }
-- error: ^Sizes of the arguments of zip do not match: \[2\] and \[1\]\.\nat .*size_mismatch\.fut:59:

-- ==
-- entry: call
-- input { [1, 2] [3, 4] } output { 11 }
-- input { [1, 2] [1, 2, 3] } error: ^function arguments of wrong shape\nat .*size_mismatch\.fut:60:

-- ==
-- entry: cat
-- input { [[1, 2]] [[3, 4], [5, 6]] } output { [[1, 2], [3, 4], [5, 6]] }
-- input { [[1, 2]] [[1, 2, 3]] }
-- error: ^Sizes of the arguments of concat do not match: \[1\]\[2\] and \[1\]\[3\]\.\nat .*size_mismatch\.fut:61:

-- ==
-- entry: lit
-- input { [1, 2] [3, 4] } output { [[1, 2], [3, 4]] }
-- input { [1, 2] [1, 2, 3] } error: ^shape of element differs from shape of first element\nat .*size_mismatch\.fut:62:

-- ==
-- entry: upd
-- input { [1, 2, 3] [7, 8] } output { [7, 8, 3] }
-- input { [1, 2, 3] [1, 2, 3] } error: ^Shape of slice does not match shape of value\.\nat .*size_mismatch\.fut:63:

-- ==
-- entry: unfl
-- input { [1, 2, 3, 4] 2i64 2i64 } output { [[1, 2], [3, 4]] }
-- input { [1, 2, 3] 2i64 2i64 }
-- error: ^Cannot unflatten array of shape \[3\] to array of shape \[2\]\[2\]\nat .*size_mismatch\.fut:64:

-- ==
-- entry: inner
-- input { [[1, 2], [3, 4]] [1, 2] } output { [[2, 4], [4, 6]] }
-- input { [[1, 2], [3, 4]] [1, 2, 3] }
-- error: ^Sizes of the arguments of map2 do not match: \[2\] and \[3\]\.\nat .*size_mismatch\.fut:66:
def dot [n] (xs: [n]i32) (ys: [n]i32) : i32 = reduce (+) 0 (map2 (*) xs ys)
entry m2 (xs: []i32) (ys: []i32) : []i32 = map2 (+) xs ys
entry m3 (xs: []i32) (ys: []i32) (zs: []i32) : []i32 = map3 (\a b c -> a + b * c) xs ys zs
entry zp (xs: []i32) (ys: []bool) : [](i32, bool) = zip xs ys
entry call (xs: []i32) (ys: []i32) : i32 = dot xs ys
entry cat (xss: [][]i32) (yss: [][]i32) : [][]i32 = xss ++ yss
entry lit (xs: []i32) (ys: []i32) : [][]i32 = [xs, ys]
entry upd (xs: *[]i32) (ys: []i32) : []i32 = xs with [0:2] = ys
entry unfl (xs: []i32) (n: i64) (m: i64) : [][]i32 = unflatten n m xs
entry inner (xss: [][]i32) (ys: []i32) : [][]i32 =
  map (\xs -> map2 (+) xs ys) xss
