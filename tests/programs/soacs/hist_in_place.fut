-- reduce_by_index and scatter update a `replicate` of the same body that nothing else
-- mentions in place (ProgramGen::consumed_dest, codegen/program_gen.cpp).
-- Where the replicate is seen elsewhere (read before the update, sliced, copied, or two
-- destinations of one statement), it is copied first. They consume their destination,
-- as in Futhark: reading it after the update is a type error
-- (tests/reject/type_uniq_scatter_dest_used.fut).
-- ==
-- entry: fresh
-- input { [0i64, 1i64, 1i64, 3i64, -1i64, 7i64] }
-- output { [1i32, 2i32, 0i32, 1i32] [0i64, 0i64, 1i64, 0i64] }
-- input { empty([0]i64) }
-- output { [0i32, 0i32, 0i32, 0i32] [0i64, 0i64, 0i64, 0i64] }

-- ==
-- entry: seen
-- input { [0i64, 1i64, 1i64, 3i64, -1i64, 7i64] }
-- output { [2i32, 3i32, 1i32, 2i32] [1i32, 1i32, 1i32, 1i32] 5i32 }

-- ==
-- entry: aliased
-- input { [0i64, 1i64, 1i64, 3i64, -1i64, 7i64] }
-- output { [1i32, 2i32, 0i32, 1i32] [0i32, 0i32] }

-- ==
-- entry: in_loop
-- input { [0i64, 1i64, 1i64, 3i64, -1i64, 7i64] }
-- output { [3i32, 6i32, 0i32, 3i32] [1i32, 2i32, 0i32, 1i32] }

-- ==
-- entry: twice
-- input { [0i64, 1i64, 1i64, 3i64, -1i64, 7i64] }
-- output { [1i32, 2i32, 0i32, 1i32] [0i32, 1i32, 0i32, 1i32] }

entry fresh (is: []i64) : ([]i32, []i64) =
  let h = reduce_by_index (replicate 4 0i32) (+) 0i32 is (map (\_ -> 1i32) is)
  let s = scatter (replicate 4 0i64) (map (\_ -> 2i64) is) (map (\_ -> 1i64) is)
  in (h, s)

entry seen (is: []i64) : ([]i32, []i32, i32) =
  let z = replicate 4 1i32
  let z_before = map (+ 0) z
  let h = reduce_by_index z (+) 0i32 is (map (\_ -> 1i32) is)
  let w = replicate 4 2i32
  let w1 = w[1]
  let h2 = reduce_by_index w (+) 0i32 is (map (\_ -> 1i32) is)
  in (h, z_before, h2[0] + w1)

entry aliased (is: []i64) : ([]i32, []i32) =
  let z = replicate 4 0i32
  let v = copy z[1:3]
  let h = reduce_by_index z (+) 0i32 is (map (\_ -> 1i32) is)
  in (h, v)

-- A copy of the replicate made before the loop starts every iteration's update; a
-- replicate made inside the body is updated in place.
entry in_loop (is: []i64) : ([]i32, []i32) =
  let z = replicate 4 0i32
  let r = loop acc = replicate 4 0i32 for _i < 3 do
            map2 (+) acc (reduce_by_index (copy z) (+) 0i32 is (map (\_ -> 1i32) is))
  let q = loop acc = replicate 4 0i32 for _i < 2 do
            let fresh = replicate 4 0i32
            in map2 (\a b -> a * 0 + b) acc (reduce_by_index fresh (+) 0i32 is (map (\_ -> 1i32) is))
  in (r, q)

-- One replicate as both destinations of a reduce_by_index over pairs.
entry twice (is: []i64) : ([]i32, []i32) =
  let z = replicate 4 0i32
  in unzip (reduce_by_index (zip z z) (\(a, b) (c, d) -> (a + c, b * 0 + d)) (0i32, 0i32) is
                            (map (\i -> (1i32, i32.i64 (i % 2))) is))
