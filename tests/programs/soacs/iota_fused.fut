-- iota and ranges read only whole by later maps, reductions and reduce_by_index are not
-- made as arrays: the kernels that read them compute their elements from the index
-- (docs/CODEGEN.md, fusion).
-- ==
-- input { 0i64 [1i32, 2i32] } output { 0i64 [1i32, 3i32] [0i32, 0i32] 0i32 }
-- input { 5i64 [1i32, 2i32, 3i32, 4i32, 5i32] }
-- output { 10i64 [1i32, 3i32, 5i32, 7i32, 9i32] [1i32, 2i32, 3i32, 4i32, 5i32] 25i32 }
-- input { 100001i64 [7i32] }
-- output { 5000050000i64 [7i32] [7i32] 1073741824i32 }
entry main [m] (n: i64) (xs: [m]i32) : (i64, []i32, []i32, i32) =
  let s = reduce (+) 0 (iota n)
  let a = map2 (\i x -> i32.i64 i + x) (iota m) xs
  let h = reduce_by_index (replicate m 0i32) (+) 0 (iota (i64.min n m)) (take (i64.min n m) xs)
  let r = reduce (+) 0 (map (\i -> i * 2 + 1) (0..<(i32.i64 (i64.min n 32768))))
  in (s, a, h, r)
