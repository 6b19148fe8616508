-- Found by kerb difftest (seed 5260, interp vs cpu): every element of a map fails an index
-- check, and the map is fused into a later kernel, which runs after a check on the host
-- that fails too (a size coercion, map3's size check before sizes were static; an
-- assert). The interpreter reports the index (the
-- first failure in program order), compiled code the host check. Both failures really
-- happen, and a device may report either (Note [Which failures may be reported] in
-- compiler/interpreter.cpp; it already accepted this when one element of the map
-- succeeded): the difftest oracle now goes on after a map whose every element fails too.
-- ==
-- entry: main
-- input { empty([0]f32) [-9i32] }
-- error: Index \[1\] out of bounds for array of shape \[1\]\.|cannot match shape of type "\[6\]f32"
-- input { [1f32, 2f32] [-9i32, 5i32, 6i32, 7i32, 8i32, 9i32] }
-- output { [0f32, 0f32, 0f32, 0f32, 0f32, 0f32] }
-- ==
-- entry: later_assert
-- input { [1i64, 2i64] false }
-- error: Index \[1[12]\] out of bounds for array of shape \[2\]\.|Assertion is false: b
-- input { [1i64, 2i64] true }
-- error: Index \[1[12]\] out of bounds for array of shape \[2\]\.
-- input { [-10i64, -9i64] true }
-- output { [-9i64, -8i64] }
entry main [n] [m] (p11: [n]f32) (p12: [m]i32) : []f32 =
  let v21 = map (\_ -> 0f32) (map (\_ -> map (\_ -> 0i32) (iota (length p11))) (iota (length p12)))
  let v31 = map3 (\_ _ _ -> 0i32) (iota 6) (map (\_ -> v21[1]) (replicate m true) :> [6]f32)
                 (map (\_ -> map (\_ -> 0i32) p11) (replicate 6 3u64))
  in map (\x -> x + f32.i32 v31[0]) v21

entry later_assert [n] (xs: [n]i64) (b: bool) : []i64 =
  let ys = map (\i -> xs[i + 10]) xs
  let z = assert b 1i64
  in map (+ z) ys
