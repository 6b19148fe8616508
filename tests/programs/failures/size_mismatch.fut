-- The size mismatches that the type checker cannot rule out fail at run time (the `size`
-- kind) with Futhark's wording and their location: entry-point arguments that must
-- share a size, a size coercion (`:>`) in a map2, in concat of rows and inside a map
-- (checked in the kernel's context), an update of a slice by a value of another shape,
-- and unflatten with explicit sizes. The arguments of map2/map3 and zip, concat of rows
-- and the rows of an array literal must have the same sizes statically, as in Futhark
-- (tests/reject/type_size_*.fut); coercions alone are in tests/programs/sizes/.
-- ==
-- entry: m2
-- input { [1, 2, 3] [10, 20, 30] } output { [11, 22, 33] }
-- input { [1, 2] [1, 2, 3] }
-- error: ^Value of \(desugared\) shape \[3\] cannot match shape of type "\[2\]i32"\.\nat .*size_mismatch\.fut:42:

-- ==
-- entry: call
-- input { [1, 2] [3, 4] } output { 11 }
-- input { [1, 2] [1, 2, 3] } error: ^entry point arguments have invalid sizes\.\nat .*size_mismatch\.fut:43:

-- ==
-- entry: cat
-- input { [[1, 2]] [[3, 4], [5, 6]] } output { [[1, 2], [3, 4], [5, 6]] }
-- input { [[1, 2]] [[1, 2, 3]] }
-- error: ^Value of \(desugared\) shape \[1\]\[3\] cannot match shape of type "\[1\]\[2\]i32"\.\nat .*size_mismatch\.fut:44:

-- ==
-- entry: upd
-- input { [1, 2, 3] [7, 8] } output { [7, 8, 3] }
-- input { [1, 2, 3] [1, 2, 3] } error: ^Shape of slice does not match shape of value\.\nat .*size_mismatch\.fut:45:

-- ==
-- entry: unfl
-- input { [1, 2, 3, 4] 2i64 2i64 } output { [[1, 2], [3, 4]] }
-- input { [1, 2, 3] 2i64 2i64 }
-- error: ^Cannot unflatten array of shape \[3\] to array of shape \[2\]\[2\]\nat .*size_mismatch\.fut:46:

-- ==
-- entry: inner
-- input { [[1, 2], [3, 4]] [1, 2] } output { [[2, 4], [4, 6]] }
-- input { [[1, 2], [3, 4]] [1, 2, 3] }
-- error: ^Value of \(desugared\) shape \[3\] cannot match shape of type "\[2\]i32"\.\nat .*size_mismatch\.fut:48:
def dot [n] (xs: [n]i32) (ys: [n]i32) : i32 = reduce (+) 0 (map2 (*) xs ys)
entry m2 [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 = map2 (+) xs (ys :> [n]i32)
entry call [n] (xs: [n]i32) (ys: [n]i32) : i32 = dot xs ys
entry cat [n][m][k][l] (xss: [n][k]i32) (yss: [m][l]i32) : [][]i32 = xss ++ (yss :> [m][k]i32)
entry upd (xs: *[]i32) (ys: []i32) : []i32 = xs with [0:2] = ys
entry unfl (xs: []i32) (n: i64) (m: i64) : [][]i32 = unflatten n m xs
entry inner [n][m][k] (xss: [n][m]i32) (ys: [k]i32) : [n][m]i32 =
  map (\xs -> map2 (+) xs (ys :> [m]i32)) xss
