-- reduce_by_index and scatter update their destination in place when it is a
-- `replicate` of the same body that nothing else reads (no copy of it,
-- ProgramGen::consumed_dest); when the replicate is read elsewhere (mapped or indexed
-- before the update), they update a copy. They consume the destination, as in Futhark:
-- it may not be read after the update, nor be the values too
-- (tests/reject/type_uniq_scatter_dest_used.fut, type_uniq_consume_aliased_arg.fut).
-- ==
-- entry: alone
-- input { [0i64, 1i64, 1i64, 3i64, 4i64, -1i64] } output { [1i32, 2i32, 0i32, 1i32] [9i32, 1i32, 2i32, 3i32] }
-- input { empty([0]i64) } output { [0i32, 0i32, 0i32, 0i32] [9i32, 1i32, 2i32, 3i32] }
entry alone (is: []i64) : ([]i32, []i32) =
  let h = reduce_by_index (replicate 4 0i32) (+) 0i32 is (map (\_ -> 1i32) is)
  let s = scatter (replicate 4 0i32) [0i64, 9i64] [9i32, 8i32]
  in (h, map2 (+) s (map i32.i64 (iota 4)))

-- ==
-- entry: returned
-- input { [0i64, 1i64, 1i64, 3i64] } output { [1i32, 2i32, 0i32, 1i32] [0i32, 0i32, 0i32, 0i32] [7i32, 7i32, 5i32, 7i32] }
entry returned (is: []i64) : ([]i32, []i32, []i32) =
  let z = replicate 4 0i32
  let z_before = map (+ 0) z
  let h = reduce_by_index z (+) 0i32 is (map (\_ -> 1i32) is)
  let w = replicate 4 5i32
  let m = map (+ 1) w
  let s = scatter w [0i64, 1i64, 3i64] [7i32, 7i32, 7i32]
  in (h, z_before, map2 (+) s (map (\x -> x - m[0] + 6) m) |> map (\x -> x - 6))

-- The destination's elements are also the values (same length), or indexed by the
-- operator's values.
-- ==
-- entry: self
-- input { [0i64, 0i64, 2i64] } output { [6i32, 2i32, 4i32] }
entry self (is: [3]i64) : []i32 =
  let z = replicate 3 2i32
  let zv = map (+ 0) z
  let h = reduce_by_index z (+) 0i32 is zv
  in map2 (+) h (reduce_by_index (replicate 3 0i32) (+) 0i32 is (map (\i -> zv[i] - 2) is))

-- In a loop: a fresh replicate per iteration, as kmeans' counts.
-- ==
-- entry: looped
-- input { 3i32 [0i64, 1i64, 1i64, 2i64, 2i64, 2i64] } output { [3i32, 6i32, 9i32] }
entry looped (k: i32) (is: []i64) : []i32 =
  loop acc = replicate 3 0i32 for _i < k do
    let c = reduce_by_index (replicate 3 0i32) (+) 0i32 is (map (\_ -> 1i32) is)
    in map2 (+) acc c

