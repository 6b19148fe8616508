-- Found by kerb difftest (seed 5027, interp vs cpu): a map with two results whose lambda
-- makes arrays, fused into the map that reads both, ran its lambda once per result read,
-- but the scratch memory was planned for one run: "internal error: a kernel needed more
-- scratch memory than planned". A fused map now runs once per element however many of
-- its results are read.
-- ==
-- entry: main
-- input { empty([0]i64) empty([0]f64) -4i32 }
-- output { [-12i32, -12i32, -12i32, -12i32, -12i32] }
-- input { [1i64, 2i64] [1f64, 2f64] 3i32 }
-- output { [9i32, 9i32, 9i32, 9i32, 9i32] }
-- ==
-- entry: diamond
-- input { [1i64, 2i64, 3i64] }
-- output { [0i64, 36i64, 72i64, 108i64] }
-- input { empty([0]i64) }
-- output { [0i64, 0i64, 0i64, 0i64] }
-- ==
-- entry: hist_pair
-- input { [0i64, 1i64, 5i64, 1i64] }
-- output { [0i64, 4i64, 0i64] }
entry main [n] (p3: [n]i64) (p4: [n]f64) (p6: i32) : []i32 =
  let (bs, xs) =
    unzip (map (\_ -> reduce (\(a0, b0) (a1, b1) -> (a0 || a1, b0 + b1)) (false, 0i32)
                              (zip (map (\_ -> true) (iota 3))
                                   (map (\_ -> p6) (map (\_ -> map2 (\_ _ -> p6) p3 p4) (iota 3)))))
               (replicate 5 0f64))
  in map3 (\h b x -> if b then h + x else h) (opaque (replicate 5 0i32)) bs xs

-- The lambda of `ys` makes arrays; both maps reading it are fused into the last map.
entry diamond [n] (xs: [n]i64) : []i64 =
  let ys = map (\k -> reduce (+) 0 (copy (map (\x -> x * k) xs)) + reduce (+) 0 (concat xs xs) * k) (iota 4)
  let a = map (\y -> y + 1) ys
  let b = map (\y -> y - 1) ys
  in map2 (+) a b

-- The indices and the values of reduce_by_index come from one map whose lambda makes
-- arrays.
entry hist_pair [n] (is: [n]i64) : []i64 =
  let (ks, vs) = unzip (map (\i -> let r = replicate 3 i in (r[0], r[1] + r[2])) is)
  in reduce_by_index (replicate 3 0) (+) 0 ks vs
