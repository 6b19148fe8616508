-- a..<b counts from a up to but not including b; equal bounds give an empty array.
-- ==
-- input { 0i64 5i64 } output { [0i64, 1i64, 2i64, 3i64, 4i64] }
-- input { -2i64 1i64 } output { [-2i64, -1i64, 0i64] }
-- input { 3i64 3i64 } output { empty([0]i64) }
entry main (a: i64) (b: i64) : []i64 = a..<b
