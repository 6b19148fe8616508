-- Found by kerb difftest (seed 125, interp vs cpu): a reduction (or scan) over a map
-- whose lambda makes an inner array was given to the block kernels, which have no
-- scratch memory: "internal compiler error: an array made in a kernel that has no
-- scratch memory". Such reductions now run as chunked kernels.
-- ==
-- entry: main
-- input { empty([0]f32) }   output { 1.5f16 6.0f32 }
-- input { [1f32, 2f32] }   output { 1.5f16 6.0f32 }
-- ==
-- entry: sums
-- input { 5i64 }   output { 20i64 [2i64, 6i64, 12i64, 20i64, 30i64] }
-- input { 0i64 }   output { 0i64 empty([0]i64) }
-- ==
-- entry: op_allocates
-- input { [1, 2, 3] }   output { 6i32 }
entry main [n] (p6: [n]f32) : (f16, f32) =
  let v34 = (reduce_comm (\(a0, b0) (a1, b1) -> ((f16.min a0 a1), (f32.min b0 b1))) (f16.inf, f32.inf) (zip (map (\x22 -> (let a27 = (map (\x24 -> 0.0f16) (map (\x26 -> 0i32) (replicate 2i64 0.0f32))) in 1.5f16)) (map (\x23 -> 0i32) (iota 6i64))) (map (\x29 -> 6.0f32) (replicate 6i64 0u16))))
  in v34

entry sums (n: i64) : (i64, []i64) =
  let ys = map (\x -> let row = map (\j -> x + j) (iota 2) in row[0] + row[1] + 1) (iota n)
  in (reduce (+) 0 (map (\x -> let r = replicate 2 x in r[0] - r[1] + 4) (iota n)), scan (+) 0 ys)

entry op_allocates (xs: []i32) : i32 =
  reduce (\a b -> let t = replicate 2 a in t[0] + t[1] + b - a) 0 xs
